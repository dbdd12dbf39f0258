import type { Knex } from 'knex'
import { internalsOf } from '../apply/knex-internals.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import { cloneWithEagerLoading } from './clone-with-eager-loading.ts'
import { countQuery } from './count-query.ts'
import { estimatedCount, type CountResult } from './estimated-count.ts'
import { totalOf } from './total-of.ts'

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

/** Options of `paginate`. */
export interface PaginateOptions {
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
 * @example
 * const params = queryParamsFromRequest(request)               // page=2&limit=10&with[0]=author
 * const page = await paginate(applyQueryParams(db('posts'), params, relationMap), params)
 * // { data: [… 10 posts with author …], meta: { current_page: 2, per_page: 10, total: 24, last_page: 3, from: 11, to: 20 } }
 */
export async function paginate<T = Record<string, unknown>>(
  builder: Knex.QueryBuilder & PromiseLike<readonly T[]>,
  request: PageRequest = {},
  options: PaginateOptions = {},
): Promise<Paginated<T>> {
  const single = internalsOf(builder)._single as { limit?: unknown; offset?: unknown }
  let limit = typeof single.limit === 'number' ? single.limit : undefined
  let offset = typeof single.offset === 'number' ? single.offset : 0
  let query = builder
  if (limit === undefined) {
    limit = positive(request.limit ?? options.defaultLimit ?? APPLY_DEFAULTS.defaultLimit, 'limit')
    if (request.page !== undefined) offset = (positive(request.page, 'page') - 1) * limit
    query = cloneWithEagerLoading(builder).limit(limit).offset(offset)
  }
  const counting = options.count === false ? undefined : countTotal(builder, options)
  const [rows, counted] = await Promise.all([query as unknown as Promise<T[]>, counting])
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
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`knex-query-params: paginate ${name} must be a whole number ≥ 1, got ${value}`)
  return value
}

async function countTotal(builder: Knex.QueryBuilder, options: PaginateOptions): Promise<CountResult> {
  if (options.count === 'estimated') return estimatedCount(builder, options.estimateThreshold)
  return { total: totalOf(await countQuery(builder)), estimated: false }
}
