import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { applyQueryParams, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'
import { idleWithin, sleepingMap, sleepingWithin } from './support/sleeping.ts'

/**
 * Issue 35 point 6: with PostgreSQL's JIT forced on for every statement (`jit_above_cost = 0` and the inlining and
 * optimisation thresholds 0, on this spec's own pool), a timeout and a disconnect on a request of ten relation
 * filters three deep still leave the backend idle within 0.5 s. PGlite has no JIT (`pg_jit_available()` is false):
 * skipped there with the reason; on a server without it the test fails under `CI=true`.
 */
const IDLE_WITHIN = 500

/** `count` relation filters three deep (`posts.comments.author.name like …`), each with its own value. */
const deep = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `wheres[${i}][column]=posts.comments.author.name&wheres[${i}][operator]=like&wheres[${i}][value]=%25${String.fromCharCode(97 + i)}%25`,
  ).join('&')
const DEEP = deep(10)
const REQUEST = parseQueryParams(`${DEEP}&scopes[0]=slow&limit=5`)
/**
 * The teeth send four times as many filters (a server that raised `maxRelationFilters` to 40): ten compile in 0.9 s on
 * a quiet machine here, too close to the 0.5 s under test; twenty in 1.6 s there. On a faster machine of the same
 * kind, with twenty, the backend went idle 479 ms after the cancel; with forty, 1.3–1.4 s after it.
 */
const TEETH_FILTERS = 40
const TEETH = parseQueryParams(`${deep(TEETH_FILTERS)}&scopes[0]=slow&limit=5`)

const JIT_ON = [
  'set jit = on',
  'set jit_above_cost = 0',
  'set jit_inline_above_cost = 0',
  'set jit_optimize_above_cost = 0',
].join('; ')

for (const db of testDatabases().filter((each) => each.name === 'postgres')) {
  describe(`cancellation with JIT forced on (${db.label})`, function () {
    this.timeout(30_000)
    let jit: Knex
    let available = false

    before(async () => {
      // PGlite is one in-process session (no pool of its own to give these settings) and has no JIT.
      if (db.engine === 'pglite') return
      jit = knex({
        ...db.knex.client.config,
        pool: {
          min: 1,
          max: 1,
          afterCreate: (
            connection: { query: (sql: string, done: (error: Error | null) => void) => void },
            done: (error: Error | null) => void,
          ) => connection.query(JIT_ON, done),
        },
      })
      const result = (await jit.raw('select pg_jit_available() as available')) as {
        rows: Array<{ available: boolean }>
      }
      available = result.rows[0]?.available === true
    })

    after(async () => {
      await jit?.destroy()
    })

    beforeEach(function () {
      if (available) return
      if (db.engine === 'postgres-server' && process.env['CI'] === 'true')
        throw new Error('pg_jit_available() is false on the CI server: install its LLVM JIT package')
      this.test?.skip()
    })

    const reason = db.engine === 'pglite' ? ' (skipped on PGlite: pg_jit_available() is false)' : ''

    it(`the session compiles the request: EXPLAIN (ANALYZE) of its SQL reports JIT functions${reason}`, async () => {
      const sql = applyQueryParams(jit('users'), parseQueryParams(`${DEEP}&limit=5`), sleepingMap(db)).toSQL()
      const result = (await jit.raw(`explain (analyze, format json) ${sql.sql}`, sql.bindings)) as {
        rows: Array<{ 'QUERY PLAN': Array<{ JIT?: { Functions: number } }> }>
      }
      expect(result.rows[0]?.['QUERY PLAN'][0]?.JIT?.Functions ?? 0).to.be.greaterThan(10)
    })

    it(`teeth: the same SQL sent as is on that session and cancelled once it runs stays active over ${IDLE_WITHIN} ms${reason}`, async () => {
      const sql = applyQueryParams(jit('users'), TEETH, sleepingMap(db), { maxRelationFilters: TEETH_FILTERS }).toSQL()
      const running = jit.raw(sql.sql, sql.bindings).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      await sleepingWithin(db, 3000)
      // As the timeout of the test below: 300 ms in, the plan is made and the backend is compiling it (it runs on
      // for 1.3 s and more after the cancel on a fast machine; a cancel that comes while it plans is answered at once).
      await new Promise((resolve) => setTimeout(resolve, 300))
      await db.knex.raw(
        "select pg_cancel_backend(pid) from pg_stat_activity where datname = ? and state = 'active' and query like '%pg_sleep%' and pid <> pg_backend_pid()",
        [db.server?.name ?? ''],
      )
      const start = Date.now()
      await idleWithin(db, 15_000)
      expect(Date.now() - start, 'a backend compiling its plan does not answer the cancel').to.be.above(IDLE_WITHIN)
      expect(await running).to.have.property('code', '57014')
    })

    it(`a bounded request that ends in time runs without JIT and leaves the session's jit on${reason}`, async () => {
      const request = parseQueryParams(`${DEEP}&limit=5`)
      const rows = (await applyQueryParams(jit('users'), request, sleepingMap(db), { timeout: 10_000 })) as Array<{
        id: number
      }>
      const plain = (await applyQueryParams(db.knex('users'), request, sleepingMap(db))) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal(plain.map((row) => row.id))
      const setting = (await jit.raw('show jit')) as { rows: Array<{ jit: string }> }
      expect(setting.rows[0]?.jit).to.equal('on')
    })

    it(`a timeout: QueryTimeoutError, the backend idle within ${IDLE_WITHIN} ms${reason}`, async () => {
      const start = Date.now()
      const error = await applyQueryParams(jit('users'), REQUEST, sleepingMap(db), { timeout: 300 }).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(Date.now() - start).to.be.below(2500)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })

    it(`a disconnect (the signal aborts while the statement runs): the backend idle within ${IDLE_WITHIN} ms${reason}`, async () => {
      const controller = new AbortController()
      const running = applyQueryParams(jit('users'), REQUEST, sleepingMap(db), { signal: controller.signal }).then(
        () => undefined,
        (caught: unknown) => caught,
      )
      await sleepingWithin(db, 3000)
      const gone = new Error('client gone')
      controller.abort(gone)
      expect(await running).to.equal(gone)
      expect(await idleWithin(db, IDLE_WITHIN)).to.be.below(IDLE_WITHIN)
    })
  })
}
