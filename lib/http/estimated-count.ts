import type { Knex } from 'knex'
import { dropOrderJoins } from '../apply/order-joins.ts'
import type { BoundOptions } from '../bound/bound-options.ts'
import { runBounded } from '../bound/run-bounded.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import { countQuery } from './count-query.ts'
import { totalOf } from './total-of.ts'

/** Below this many rows (as the planner estimates them) the exact count is cheap enough to run. */
export const ESTIMATE_THRESHOLD = 100_000

/** A row count, and whether it is the planner's estimate rather than an exact count. */
export interface CountResult {
  total: number
  estimated: boolean
}

/**
 * Counts the rows `builder` would return without its order, limit and offset, cheaply on big tables: where
 * the database exposes its planner's row estimate (PostgreSQL's `EXPLAIN`), an estimate of at least
 * `threshold` rows is returned as it is, as PostgREST's `count=estimated` does; a smaller one, and every
 * database without an estimate, gets the exact count of {@link countQuery}.
 *
 * @example
 * const { total, estimated } = await estimatedCount(applyQueryParams(db('events'), params, relationMap))
 * // { total: 2004113, estimated: true } on a 2M-row PostgreSQL table; { total: 37, estimated: false } for a narrow filter
 *
 * `options.timeout` and `options.signal` bound the `EXPLAIN` and the count together (see `BoundOptions`);
 * `options.dialect` declares the database of a knex client the library does not list (see `DialectOptions`).
 */
export async function estimatedCount(builder: Knex.QueryBuilder, threshold = ESTIMATE_THRESHOLD, options: BoundOptions & DialectOptions = {}): Promise<CountResult> {
  if (options.dialect !== undefined) dialectOf(builder.client, options.dialect)
  return estimatedCountWithin(builder, threshold, StatementBound.of(options))
}

/** {@link estimatedCount} within a bound shared with other statements (`paginate`'s). */
export async function estimatedCountWithin(builder: Knex.QueryBuilder, threshold: number, bound: StatementBound | undefined): Promise<CountResult> {
  const { estimateRows } = dialectOf(builder.client)
  if (estimateRows !== undefined) {
    const { sql, bindings } = dropOrderJoins(builder.clone().clear('order').clear('limit').clear('offset')).toSQL()
    const estimate = estimateRows.read(await runBounded(builder.client.raw(estimateRows.sql(sql), bindings), bound))
    if (estimate !== undefined && estimate >= threshold) return { total: estimate, estimated: true }
  }
  return { total: totalOf(await runBounded(countQuery(builder), bound)), estimated: false }
}
