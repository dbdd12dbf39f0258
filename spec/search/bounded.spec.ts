import { expect } from 'chai'
import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams, QueryTimeoutError, type RelationMap } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { idleWithin, sleepingWithin, sleepSql } from '../bound/support/sleeping.ts'

const SEARCH = parseQueryParams('search=alice&limit=5')

for (const db of testDatabases().filter(
  (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
)) {
  describe(`search: the request's timeout and signal cover it (${db.label})`, function () {
    this.timeout(20_000)
    // The users guard sleeps on the server: only the search's relation filter through author reaches users.
    const sleep = sleepSql(db, 5)
    const map: RelationMap = {
      ...relationMap,
      users: { ...relationMap.users, guard: (query: Knex.QueryBuilder) => void query.whereRaw(sleep) },
      posts: { ...relationMap.posts, search: { columns: ['title', 'author.name'], mode: 'contains' } },
    }

    afterEach(async () => {
      await idleWithin(db, 5000)
    })

    it('a timeout cancels a slow search on the server (QueryTimeoutError, 503)', async () => {
      const start = Date.now()
      const error: unknown = await applyQueryParams(db.knex('posts'), SEARCH, map, { timeout: 300 }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(error).to.include({ status: 503, code: 'query_timeout', timeout: 300 })
      expect(Date.now() - start).to.be.within(280, 1500)
      expect(await idleWithin(db, 500)).to.be.below(500)
    })

    it('an aborted signal cancels it with its reason', async () => {
      const controller = new AbortController()
      const running = applyQueryParams(db.knex('posts'), SEARCH, map, { signal: controller.signal }).then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      await sleepingWithin(db, 3000)
      const reason = new Error('client gone')
      controller.abort(reason)
      expect(await running).to.equal(reason)
      expect(await idleWithin(db, 500)).to.be.below(500)
    })
  })
}
