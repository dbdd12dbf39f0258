import knex, { type Knex } from 'knex'
import { pgTypes } from '../../../fixtures/driver-settings.ts'
import { applyQueryParams, defineRelationMap, paginate, type QueryParams } from '../../../lib/index.ts'

/** The topology specs' map: people and their items, with a `slow` scope that sleeps 3 s on the server. */
export const map = defineRelationMap({
  people: { columns: { id: 'integer', name: 'string' } },
  items: {
    columns: { id: 'integer', title: 'string', person_id: 'integer' },
    relations: { person: { type: 'belongsTo', table: 'people', foreignKey: 'person_id' } },
    scopes: { slow: (query: Knex.QueryBuilder) => void query.whereRaw('pg_sleep(3) is not null') },
  },
})

/** A knex instance on `url` with the suite's pg type parsers. */
export const connect = (url: string): Knex =>
  knex({ client: 'pg', connection: { connectionString: url, types: pgTypes }, pool: { min: 0, max: 4 } })

/** A page of items with its count, as a route would read it. */
export const page = (db: Knex, params: QueryParams) => paginate(applyQueryParams(db('items'), params, map), params)

/**
 * Statements running a sleep on `db`'s server, other than the asking one. The asking connection is the test's, not
 * the subject's: when the server has ended it (a standby resolving a conflict with recovery may end sessions), it is
 * asked once more on a new connection.
 */
export async function sleeping(db: Knex): Promise<number> {
  const ask = async (): Promise<number> => {
    const { rows } = (await db.raw(
      "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%pg_sleep%' and pid <> pg_backend_pid()",
    )) as { rows: Array<{ n: number }> }
    return rows[0]?.n ?? 0
  }
  try {
    return await ask()
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ECONNRESET') throw error
    return ask()
  }
}

/** Milliseconds until `check` holds, polling every 10 ms; throws after `within` ms. */
export async function until(what: string, within: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now()
  while (!(await check())) {
    if (Date.now() - start > within) throw new Error(`${what}: not within ${within} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return Date.now() - start
}
