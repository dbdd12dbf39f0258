import type { Knex } from 'knex'
import { inTransaction, runInTransaction } from '../knex/client.ts'
import { limitOf, offsetOf } from '../knex/builder-state.ts'
import { statementCopy } from '../knex/builder-methods.ts'
import type { BoundOptions } from '../bound/bound-options.ts'
import { boundedRunOf } from '../apply/read-state.ts'
import { runBounded } from '../bound/run-within-bound.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import { cloneWithEagerLoading } from './clone-with-eager-loading.ts'
import { siblingStatements } from './sibling-statements.ts'
import { countQuery, estimatedCountWithin, ESTIMATE_THRESHOLD, type CountResult, totalOf } from './counts.ts'

/** Which page to return: `QueryParams` fits, and so does `{ page, limit }`. */
export interface PageRequest {
  page?: number | undefined
  limit?: number | undefined
}

/** Laravel's pagination metadata; `total` and `last_page` are left out when counting is skipped. */
export interface PaginationMeta {
  current_page: number
  per_page: number
  /** Position of the first row of the page (1-based); `null` for an empty page. */
  from: number | null
  /** Position of the last row of the page; `null` for an empty page. */
  to: number | null
  total?: number
  last_page?: number
  /** With `{ count: 'estimated' }`: whether `total` (and so `last_page`) is the planner's estimate. */
  estimated?: boolean
}

/** One page of rows and its {@link PaginationMeta}. */
export interface Paginated<T> {
  data: T[]
  meta: PaginationMeta
}

/**
 * How `paginate` uses the pool for the page and the count:
 * - `'parallel'` (default): both at once, on two connections; the answer comes after the slower one, or at the
 *   first failure, which cancels the other statement on the server;
 * - `'sequential'`: the page, then the count, on one connection at a time;
 * - `'transaction'`: both in one read-only `repeatable read` transaction (one connection; SQLite's are
 *   serializable), so `total` counts the same snapshot the page was read from.
 */
export type PaginateQueries = 'parallel' | 'sequential' | 'transaction'

/**
 * Options of `paginate`; `timeout` and `signal` bound page, count and eager loading together (see
 * {@link BoundOptions}).
 */
export interface PaginateOptions extends BoundOptions, DialectOptions {
  /**
   * Run the count query for `total` and `last_page`; default `true`. `'estimated'` takes PostgreSQL's
   * planner estimate when it is at least `estimateThreshold` rows (exact below it, and on other databases)
   * and says which in `meta.estimated`.
   */
  count?: boolean | 'estimated'
  /** With `count: 'estimated'`: the estimate from which the exact count is skipped; default 100,000. */
  estimateThreshold?: number
  /** Page size when neither the builder nor the request has a limit; default 15, as `applyQueryParams`. */
  defaultLimit?: number
  /**
   * How page and count use the pool (see {@link PaginateQueries}); default `'parallel'`. Under load,
   * `'sequential'` holds one connection per request instead of two.
   */
  queries?: PaginateQueries
}

/**
 * Runs a list query and returns one page with Laravel-style metadata:
 * `{ data, meta: { current_page, per_page, total, last_page, from, to } }`. The limit and offset already on
 * the builder (as `applyQueryParams` sets them for `page`) are kept; a builder without a limit gets
 * `limit` (else `defaultLimit`) and the offset of `page`. The count runs on the same filtered query,
 * without order, limit, offset or eager loading (`distinct` rows are counted through a subquery);
 * `{ count: false }` skips it, and `meta` then has no `total` or `last_page`. The builder is not changed.
 * The type of `data` is read from the builder: `paginate(applyQueryParams(db<Post>('posts'), …))` gives `Post[]`.
 *
 * `options.timeout` (or the builder's, from `applyQueryParams`) bounds page, count and eager loading
 * together, from the call; `options.signal` (or the builder's) cancels them. A statement still running then
 * is cancelled on the server and the promise rejects with `QueryTimeoutError` or the signal's reason.
 * `options.queries` says how page and count use the pool (see {@link PaginateQueries}).
 *
 * @example
 * const params = queryParamsFromRequest(request)               // page=2&limit=10&with[0]=author
 * const page = await paginate(applyQueryParams(db('posts'), params, relationMap), params)
 // { data: [… 10 posts with author …], meta: { current_page: 2, per_page: 10, total: 24, last_page: 3, from: 11, to: 20
 // } }
 *
 */
export async function paginate<T = Record<string, unknown>>(
  builder: Knex.QueryBuilder & PromiseLike<readonly T[]>,
  request: PageRequest = {},
  options: PaginateOptions = {},
): Promise<Paginated<T>> {
  if (options.dialect !== undefined) dialectOf(builder.client, options.dialect)
  let limit = limitOf(builder)
  let offset = offsetOf(builder) ?? 0
  let query = builder
  if (limit === undefined) {
    limit = positive(request.limit ?? options.defaultLimit ?? APPLY_DEFAULTS.defaultLimit, 'limit')
    if (request.page !== undefined) offset = (positive(request.page, 'page') - 1) * limit
    const { inlinePage } = dialectOf(builder.client)
    query = cloneWithEagerLoading(builder)
      .limit(limit, { skipBinding: inlinePage })
      .offset(offset, { skipBinding: inlinePage })
  }
  const bounded = boundedRunOf(builder)
  const retryTransient = options.retryTransient ?? bounded?.options.retryTransient
  const bound = StatementBound.of({
    timeout: options.timeout ?? bounded?.options.timeout,
    signal: options.signal ?? bounded?.options.signal,
    retryTransient,
  })
  const [rows, counted] = await pageAndCount(builder, query, options, bound)
  const data = Array.isArray(rows) ? rows : []
  const meta: PaginationMeta = {
    current_page: request.page ?? (limit > 0 ? Math.floor(offset / limit) + 1 : 1),
    per_page: limit,
    from: data.length === 0 ? null : offset + 1,
    to: data.length === 0 ? null : offset + data.length,
  }
  if (counted !== undefined) {
    const { total } = counted
    meta.total = total
    meta.last_page = limit > 0 ? Math.max(1, Math.ceil(total / limit)) : 1
    if (options.count === 'estimated') meta.estimated = counted.estimated
  }
  return { data, meta }
}

function positive(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`knex-query-params: paginate ${name} must be a whole number ≥ 1, got ${value}`)
  return value
}

type Counted = CountResult | undefined

async function pageAndCount(
  builder: Knex.QueryBuilder,
  query: Knex.QueryBuilder,
  options: PaginateOptions,
  bound: StatementBound | undefined,
): Promise<[unknown, Counted]> {
  const counts = options.count !== false
  const page = (): Promise<unknown> => runPage(query, bound)
  const count = (): Promise<Counted> => (counts ? countTotal(builder, options, bound) : Promise.resolve(undefined))
  switch (options.queries ?? 'parallel') {
    case 'parallel':
      return siblingStatements<[unknown, Counted]>(bound, (shared) => [
        runPage(query, shared),
        counts ? countTotal(builder, options, shared) : Promise.resolve(undefined),
      ])
    case 'sequential':
      return [await page(), await count()]
    case 'transaction': {
      if (!counts || inTransaction(builder.client)) return [await page(), await count()]
      const read = async (trx: Knex.Transaction): Promise<[unknown, Counted]> => [
        await runPage(cloneWithEagerLoading(query).transacting(trx), bound),
        await countTotal(builder.clone().transacting(trx), options, bound),
      ]
      const transaction = runInTransaction(builder.client, read, dialectOf(builder.client).snapshotTransaction)
      return bound === undefined ? transaction : bound.race(transaction)
    }
  }
}

/** The page's rows (with eager loading, when `applyQueryParams` attached it) within `bound`. */
function runPage(query: Knex.QueryBuilder, bound: StatementBound | undefined): Promise<unknown> {
  const bounded = boundedRunOf(query)
  if (bounded !== undefined) return bounded.run(query, bound)
  return bound === undefined ? Promise.resolve(query) : runBounded(statementCopy(query), bound)
}

async function countTotal(
  builder: Knex.QueryBuilder,
  options: PaginateOptions,
  bound: StatementBound | undefined,
): Promise<CountResult> {
  if (options.count === 'estimated')
    return estimatedCountWithin(builder, options.estimateThreshold ?? ESTIMATE_THRESHOLD, bound)
  return { total: totalOf(await runBounded(countQuery(builder), bound)), estimated: false }
}
