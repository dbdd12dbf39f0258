import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import {
  applyQueryParams,
  configureSqliteReads,
  parseQueryParams,
  problemResponse,
  QueryTimeoutError,
  type RelationMap,
} from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'

/** A scope whose statement takes a while on SQLite: a recursive count to two million. */
const SLOW_SQLITE =
  '(with recursive n(i) as (select 1 union all select i + 1 from n where i < 2000000) select count(*) from n) > 0'

describe('database time on SQLite', () => {
  const db = testDatabases()[0]
  if (db === undefined || db.engine !== 'sqlite') throw new Error('expected SQLite first')
  const users = relationMap.users
  const map: RelationMap = {
    ...relationMap,
    users: { ...users, scopes: { ...users.scopes, slow: (query) => void query.whereRaw(SLOW_SQLITE) } },
  }

  it('runs a statement to its end (it cannot be interrupted), then rejects with QueryTimeoutError if time is up', async () => {
    // A recursive step has no row estimate: the in-thread ceiling (spec/bound/sqlite-routing.spec.ts) is lifted here.
    configureSqliteReads(db.knex, { maxInThreadRows: Number.POSITIVE_INFINITY })
    const error = await applyQueryParams(db.knex('users'), parseQueryParams('scopes[0]=slow&limit=1'), map, {
      timeout: 1,
    })
      .then(
        () => undefined,
        (reason: unknown) => reason,
      )
      .finally(() => configureSqliteReads(db.knex, {}))
    expect(error).to.be.instanceOf(QueryTimeoutError)
  })

  it('runs no statement once the signal has aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('gone'))
    const error = await applyQueryParams(db.knex('users'), parseQueryParams('limit=1'), map, {
      signal: controller.signal,
    }).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect((error as Error).message).to.equal('gone')
  })

  it('rejects a timeout that is not a positive number of milliseconds', async () => {
    const error = await Promise.resolve(
      applyQueryParams(db.knex('users'), parseQueryParams('limit=1'), map, { timeout: 0 }),
    ).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(error).to.be.instanceOf(RangeError)
  })

  it('problemResponse answers a QueryTimeoutError with 503 query_timeout, without SQL', () => {
    const problem = problemResponse(new QueryTimeoutError(250))
    expect(problem?.status).to.equal(503)
    expect(problem?.body).to.include({ status: 503, code: 'query_timeout', title: 'Service Unavailable' })
  })
})
