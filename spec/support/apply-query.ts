import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { ApplyOptions } from '../../lib/options.ts'
import type { TestDatabase } from './databases.ts'

/**
 * What a request handler does: parses the client's query string and applies it to `db(table)` (or to
 * `base`, the caller's own builder) with the demo relation map. Awaiting the result runs the query.
 *
 * @example
 * const rows = await applyQuery(db, 'users', 'wheres[0][column]=name&wheres[0][value]=Bob')
 */
export function applyQuery(
  db: TestDatabase,
  table: string,
  query: string,
  options: ApplyOptions = {},
  base?: Knex.QueryBuilder,
): Knex.QueryBuilder {
  return applyQueryParams(base ?? db.knex(table), parseQueryParams(query), relationMap, options)
}

/** A query result as its list of rows; throws if the result is not a list. */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(result)) throw new Error(`expected a list of rows, got ${typeof result}`)
  return result as Array<Record<string, unknown>>
}

/** The ids of the rows, in the order the database returned them. */
export function idsOf(result: unknown): number[] {
  return rowsOf(result).map((row) => Number(row.id))
}

/** The ids of the rows, ascending (for filters whose SQL asks for no order). */
export function sortedIdsOf(result: unknown): number[] {
  return idsOf(result).sort((a, b) => a - b)
}
