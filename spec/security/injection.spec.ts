import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { dataChecksum } from './support/data-checksum.ts'
import { INJECTION_CORPUS } from './support/injection-corpus.ts'
import { likeMatches } from './support/like-matches.ts'
import { statementsOf, type Statement } from './support/statements-of.ts'

/** How a payload travels in the query string. */
type Encoding = 'encoded' | 'raw'

/** One place a payload goes: the table, and the query with the payload in that place. */
interface Placement {
  table: string
  query: (payload: string) => string
  /** The same query with a harmless value there; the payload may change nothing but bindings. */
  baseline?: string
  /** The ids the query must return when the payload is bound as data, if it is accepted. */
  expectedIds?: (payload: string) => number[]
  /** When the payload is sent percent-encoded, a rejection is the only right answer… */
  mustReject?: boolean
  /** …except for these payloads, which are valid there (`*` in `with`). */
  valid?: readonly string[]
}

const ENCODINGS: readonly Encoding[] = ['encoded', 'raw']
const users = demoData.users
const userIds = (keep: (user: (typeof users)[number]) => boolean): number[] => users.filter(keep).map((user) => user.id)

const POSITIONS: Record<string, Placement[]> = {
  column: [
    { table: 'users', query: (p) => `wheres[0][column]=${p}&wheres[0][value]=x`, mustReject: true },
    { table: 'users', query: (p) => `orders[0][column]=${p}`, mustReject: true },
    { table: 'users', query: (p) => `columns[0]=id&columns[1]=${p}`, mustReject: true },
    { table: 'users', query: (p) => `distinct[0]=${p}`, mustReject: true },
  ],
  operator: [
    {
      table: 'users',
      query: (p) => `wheres[0][column]=name&wheres[0][operator]=${p}&wheres[0][value]=x`,
      mustReject: true,
    },
  ],
  boolean: [
    {
      table: 'users',
      query: (p) =>
        `wheres[0][column]=name&wheres[0][value]=x&wheres[1][column]=id&wheres[1][value]=1&wheres[1][boolean]=${p}`,
      mustReject: true,
    },
  ],
  value: [
    {
      table: 'users',
      query: (p) => `wheres[0][column]=name&wheres[0][value]=${p}`,
      baseline: 'wheres[0][column]=name&wheres[0][value]=harmless',
      expectedIds: (p) => (p === 'NULL' ? [] : userIds((user) => user.name === p)),
    },
    {
      table: 'users',
      query: (p) => `wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=${p}`,
      baseline: 'wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=harmless',
      expectedIds: (p) =>
        ([...p].some((char) => char.charCodeAt(0) > 127) ? undefined : userIds((user) => likeMatches(p, user.name))) ??
        [],
    },
    {
      table: 'users',
      query: (p) => `wheres[0][column]=name&wheres[0][operator]=in&wheres[0][value][0]=${p}&wheres[0][value][1]=Bob`,
      baseline: 'wheres[0][column]=name&wheres[0][operator]=in&wheres[0][value][0]=harmless&wheres[0][value][1]=Bob',
      expectedIds: (p) => userIds((user) => user.name === 'Bob' || user.name === p),
    },
    { table: 'users', query: (p) => `wheres[0][column]=id&wheres[0][value]=${p}`, mustReject: true },
    {
      table: 'users',
      query: (p) => `wheres[0][column]=created_at&wheres[0][operator]=%3E&wheres[0][value]=${p}`,
      mustReject: true,
    },
    { table: 'users', query: (p) => `limit=${p}`, mustReject: true },
    { table: 'users', query: (p) => `offset=${p}`, mustReject: true },
    { table: 'users', query: (p) => `page=${p}`, mustReject: true },
  ],
  relation: [
    { table: 'users', query: (p) => `relationsExists[0]=${p}`, mustReject: true },
    { table: 'users', query: (p) => `with[0]=${p}`, mustReject: true, valid: ['*'] },
    { table: 'users', query: (p) => `wheres[0][column]=${p}.name&wheres[0][value]=x`, mustReject: true },
    { table: 'users', query: (p) => `wheres[0][column]=posts.${p}.body&wheres[0][value]=x`, mustReject: true },
  ],
  scope: [{ table: 'posts', query: (p) => `scopes[0]=${p}`, mustReject: true }],
  direction: [{ table: 'users', query: (p) => `orders[0][column]=name&orders[0][direction]=${p}`, mustReject: true }],
  keys: [
    {
      table: 'users',
      query: (p) => `${p}=1&wheres[0][column]=name&wheres[0][value]=Bob`,
      baseline: 'wheres[0][column]=name&wheres[0][value]=Bob',
      expectedIds: () => userIds((user) => user.name === 'Bob'),
    },
    {
      table: 'users',
      query: (p) => `wheres[0][${p}]=1&wheres[0][column]=name&wheres[0][value]=Bob`,
      baseline: 'wheres[0][column]=name&wheres[0][value]=Bob',
      expectedIds: () => userIds((user) => user.name === 'Bob'),
    },
    { table: 'users', query: (p) => `wheres[${p}][column]=name&wheres[${p}][value]=Bob` },
    { table: 'users', query: (p) => `orders[${p}][column]=name` },
  ],
}

function encodePayload(payload: string, encoding: Encoding): string {
  return encoding === 'raw' ? payload : encodeURIComponent(payload)
}

const sqlOf = (statements: readonly Statement[]): string[] => statements.map((statement) => statement.sql)

/** Statements of the harmless version of a placement on one database, computed once. */
async function baselineSql(
  db: TestDatabase,
  placement: Placement,
  cache: Map<string, string[]>,
): Promise<string[] | undefined> {
  if (placement.baseline === undefined) return undefined
  const key = `${placement.table}?${placement.baseline}`
  let sql = cache.get(key)
  if (sql === undefined) {
    const { statements, error } = await statementsOf(db.knex, () =>
      applyQueryParams(db.knex(placement.table), parseQueryParams(placement.baseline ?? ''), relationMap),
    )
    if (error !== undefined) throw error
    sql = sqlOf(statements)
    cache.set(key, sql)
  }
  return sql
}

for (const db of testDatabases()) {
  describe(`security: an injection corpus in every position executes nothing (${db.name})`, () => {
    let checksumBefore = ''
    const baselines = new Map<string, string[]>()

    before(async () => {
      checksumBefore = await dataChecksum(db.knex)
    })

    for (const [position, placements] of Object.entries(POSITIONS)) {
      it(`${position}: ${INJECTION_CORPUS.length} payloads, encoded and raw, give bound values or a QueryParamsError, run only SELECT statements and change no row`, async function () {
        this.timeout(60_000)
        const every: Statement[] = []
        for (const placement of placements) {
          const baseline = await baselineSql(db, placement, baselines)
          for (const payload of INJECTION_CORPUS) {
            for (const encoding of ENCODINGS) {
              const query = placement.query(encodePayload(payload, encoding))
              const label = `${placement.table}?${query} (${encoding})`
              const { result, error, statements } = await statementsOf(db.knex, () =>
                applyQueryParams(db.knex(placement.table), parseQueryParams(query), relationMap),
              )
              every.push(...statements)
              if (error !== undefined) {
                expect(error, `${label} threw ${String(error)}`).to.be.instanceOf(QueryParamsError)
                expect(statements, `${label} was rejected after running SQL`).to.deep.equal([])
                continue
              }
              const mustReject =
                placement.mustReject === true && encoding === 'encoded' && placement.valid?.includes(payload) !== true
              expect(mustReject, `${label} was accepted`).to.equal(false)
              rowsOf(result)
              if (encoding !== 'encoded') continue
              if (baseline !== undefined)
                expect(sqlOf(statements), `${label}: the payload changed the SQL, not just its bindings`).to.deep.equal(
                  baseline,
                )
              const expected = placement.expectedIds?.(payload)
              if (expected !== undefined) {
                const got = rowsOf(result)
                  .map((row) => Number(row.id))
                  .sort((a, b) => a - b)
                expect(got, `${label}: wrong rows`).to.deep.equal(expected)
              }
            }
          }
        }
        if (placements.some((placement) => placement.mustReject !== true))
          expect(every.length, 'statements run').to.be.greaterThan(0)
        for (const statement of every)
          expect(statement.sql.trimStart().toLowerCase().startsWith('select'), statement.sql).to.equal(true)
        expect(await dataChecksum(db.knex), 'row counts and checksums of every table').to.equal(checksumBefore)
      })
    }
  })
}
