import type { Knex } from 'knex'
import { shapesRows } from '../knex/builder-state.ts'
import { dropOrderJoins } from '../apply/order-joins.ts'
import type { BoundOptions } from '../bound/bound-options.ts'
import { runBounded } from '../bound/run-within-bound.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'

/** The `total` of a count query's result (its first row), as a number; 0 when missing. */
export function totalOf(result: unknown): number {
  const row: unknown = Array.isArray(result) ? result[0] : result
  const total = typeof row === 'object' && row !== null && 'total' in row ? row.total : undefined
  return Number(total ?? 0)
}

/**
 * A query counting the rows `builder` would return without its order, limit and offset (nor the joins
 * `applyQueryParams` added only for orders through relations), as `total`.
 * `builder.clone()` is a plain knex builder, so no eager loading runs. A plain query becomes
 * `select count(*) as total from … where …`; one whose select list decides the rows (`distinct`,
 * `group by`, `having`, `union`) is counted as a subquery: `select count(*) as total from (…) as paginated`.
 *
 * @example
 * const [{ total }] = await countQuery(applyQueryParams(db('posts'), params, relationMap))
 */
export function countQuery(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const base = dropOrderJoins(builder.clone().clear('order').clear('limit').clear('offset'))
  if (shapesRows(base)) {
    return builder.client.queryBuilder().count({ total: '*' }).from(base.as('paginated'))
  }
  return base.clearSelect().count({ total: '*' })
}

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
 // { total: 2004113, estimated: true } on a 2M-row PostgreSQL table; { total: 37, estimated: false } for a narrow
 // filter
 *
 *
 * `options.timeout` and `options.signal` bound the `EXPLAIN` and the count together (see `BoundOptions`);
 * `options.dialect` declares the database of a knex client the library does not list (see `DialectOptions`).
 */
export async function estimatedCount(
  builder: Knex.QueryBuilder,
  threshold = ESTIMATE_THRESHOLD,
  options: BoundOptions & DialectOptions = {},
): Promise<CountResult> {
  if (options.dialect !== undefined) dialectOf(builder.client, options.dialect)
  return estimatedCountWithin(builder, threshold, StatementBound.of(options))
}

/** {@link estimatedCount} within a bound shared with other statements (`paginate`'s). */
export async function estimatedCountWithin(
  builder: Knex.QueryBuilder,
  threshold: number,
  bound: StatementBound | undefined,
): Promise<CountResult> {
  const { estimateRows } = dialectOf(builder.client)
  if (estimateRows !== undefined) {
    const { sql, bindings } = dropOrderJoins(builder.clone().clear('order').clear('limit').clear('offset')).toSQL()
    const estimate = estimateRows.read(await runBounded(builder.client.raw(estimateRows.sql(sql), bindings), bound))
    if (estimate !== undefined && estimate >= threshold) return { total: estimate, estimated: true }
  }
  return { total: totalOf(await runBounded(countQuery(builder), bound)), estimated: false }
}
