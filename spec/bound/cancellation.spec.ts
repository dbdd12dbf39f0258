import { expect } from 'chai'
import { applyQueryParams, loadRelations, paginate, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { idleWithin, sleepingMap, sleepingWithin } from './support/sleeping.ts'
import { rejection } from './support/rejection.ts'

const SLOW = parseQueryParams('scopes[0]=slow&limit=5')
/**
 * A disconnect or timeout must leave the server idle within this many milliseconds (the issue asked for "a few
 * hundred"; they take that on an idle machine). The bound is half the 5 s sleep of `sleepingMap`: a statement
 * left to run would still be sleeping then, so a busy machine cannot make the test pass wrongly, nor fail it.
 */
const IDLE_WITHIN = 2500
/** Latest a rejection may come after the call: half the 5 s sleep, so it never waited for the statement. */
const REJECTED_WITHIN = 2500

for (const db of testDatabases().filter(
  (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
)) {
  describe(`database time on ${db.label}`, function () {
    this.timeout(20_000)
    const map = sleepingMap(db)

    afterEach(async () => {
      await idleWithin(db, 5000)
    })

    it('a timeout cancels the statement on the server and rejects with QueryTimeoutError (503, query_timeout)', async () => {
      const { error, ms } = await rejection(applyQueryParams(db.knex('users'), SLOW, map, { timeout: 300 }))
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(error).to.include({ status: 503, code: 'query_timeout', timeout: 300 })
      expect(ms).to.be.within(280, REJECTED_WITHIN)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it('a signal cancels the statement on the server and rejects with its reason', async () => {
      const controller = new AbortController()
      const running = rejection(applyQueryParams(db.knex('users'), SLOW, map, { signal: controller.signal }))
      await sleepingWithin(db, 3000)
      const reason = new Error('client gone')
      controller.abort(reason)
      const { error } = await running
      expect(error).to.equal(reason)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it('an already aborted signal runs nothing', async () => {
      const controller = new AbortController()
      controller.abort()
      const sent: string[] = []
      const record = (query: { sql: string }): void => void sent.push(query.sql)
      db.knex.on('query', record)
      try {
        const { error } = await rejection(applyQueryParams(db.knex('users'), SLOW, map, { signal: controller.signal }))
        expect((error as Error).name).to.equal('AbortError')
      } finally {
        db.knex.off('query', record)
      }
      expect(sent, 'statements sent').to.deep.equal([])
    })

    for (const queries of ['parallel', 'sequential', 'transaction'] as const) {
      it(`paginate (${queries}) cancels page and count when its timeout is up`, async () => {
        const builder = applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow&page=1&limit=5'), map)
        const { error, ms } = await rejection(paginate(builder, { page: 1, limit: 5 }, { timeout: 300, queries }))
        expect(error).to.be.instanceOf(QueryTimeoutError)
        expect(ms).to.be.within(280, REJECTED_WITHIN)
        expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
      })
    }

    it("paginate takes the builder's timeout from applyQueryParams for the count as well", async () => {
      const builder = applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow&page=1&limit=5'), map, {
        timeout: 300,
      })
      const { error } = await rejection(paginate(builder, { page: 1, limit: 5 }, { queries: 'parallel' }))
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it('cancels an eager-load batch (awaited builder and loadRelations)', async () => {
      const slowPosts = sleepingMap(db, { slowPosts: true })
      const params = parseQueryParams(
        'wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=1&wheres[0][boolean]=and&with[0]=posts',
      )
      const first = await rejection(applyQueryParams(db.knex('users'), params, slowPosts, { timeout: 300 }))
      expect(first.error).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
      const users = await db.knex('users').select('id').where('id', 1)
      const second = await rejection(loadRelations(db.knex, 'users', users, ['posts'], slowPosts, { timeout: 300 }))
      expect(second.error).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it('cancels the queries of relation counts (nested in eager loading, and in loadRelations)', async () => {
      const slowPosts = sleepingMap(db, { slowPosts: true })
      const params = parseQueryParams(
        'wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=1&wheres[0][boolean]=and&with[0]=members.postsCount',
      )
      const nested = await rejection(applyQueryParams(db.knex('teams'), params, slowPosts, { timeout: 300 }))
      expect(nested.error).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
      const users = await db.knex('users').select('id').where('id', 1)
      const loaded = await rejection(
        loadRelations(db.knex, 'users', users, ['postsCount'], slowPosts, { timeout: 300 }),
      )
      expect(loaded.error).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it('gives every connection back: after more cancelled requests than the pool holds, queries still run', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, () => applyQueryParams(db.knex('users'), SLOW, map, { timeout: 200 })),
      )
      expect(results.map((result) => result.status)).to.deep.equal(Array(6).fill('rejected'))
      for (const result of results) expect((result as PromiseRejectedResult).reason).to.be.instanceOf(QueryTimeoutError)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
      const rows = await applyQueryParams(db.knex('users'), parseQueryParams('limit=2&orders[0][column]=id'), map, {
        timeout: 2000,
      })
      expect(rows.map((row: { id: unknown }) => Number(row.id))).to.deep.equal([1, 2])
    })

    it('a request within its timeout returns its rows and relations as without one', async () => {
      const query =
        'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2&wheres[0][boolean]=and&with[0]=posts&orders[0][column]=id'
      const plain = await applyQueryParams(db.knex('users'), parseQueryParams(query), map)
      const bounded = await applyQueryParams(db.knex('users'), parseQueryParams(query), map, {
        timeout: 5000,
        signal: new AbortController().signal,
      })
      expect(bounded).to.deep.equal(plain)
      const page = await paginate(
        applyQueryParams(db.knex('users'), parseQueryParams(`${query}&page=1&limit=1`), map),
        { page: 1, limit: 1 },
        { timeout: 5000, queries: 'transaction' },
      )
      expect(page.data).to.deep.equal(plain.slice(0, 1))
      expect(page.meta.total).to.equal(2)
    })
  })
}
