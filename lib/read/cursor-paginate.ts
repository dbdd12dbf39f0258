import type { Knex } from 'knex'
import { readReversed } from '../apply/page-rewrite.ts'
import { listedColumnsOf } from '../apply/apply-selection.ts'
import { markSeekColumns, seeRawRows, seekOf } from '../apply/seek-orders.ts'
import { boundedRunOf, carryBoundedRun } from '../apply/read-state.ts'
import type { BoundOptions } from '../bound/bound-options.ts'
import { runBounded } from '../bound/run-within-bound.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { cursorKeys, type CursorSecret } from '../cursor/cursor-secrets.ts'
import { decodeCursor, encodeCursor, type CursorDirection, type CursorPayload } from '../cursor/cursor-token.ts'
import { copyPositions, positionSelect, positionSources, takePosition } from '../cursor/page-position.ts'
import { requestBinding } from '../cursor/request-binding.ts'
import { orderList, pageOrders, seekConditions } from '../cursor/seek-condition.ts'
import { cursorSqlOf, isCursorText } from '../dialect/cursor-sql.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { statementCopy } from '../knex/builder-methods.ts'
import { limitOf, offsetOf } from '../knex/builder-state.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import { Identifiers } from '../sql/identifiers.ts'

/** What `cursorPaginate` reads of the request: `QueryParams` fits. */
export interface CursorRequest {
  cursor?: string | undefined
  limit?: number | undefined
  page?: number | undefined
  offset?: number | undefined
}

/** The metadata of a keyset page: no count, no page number; the cursors of the pages beside it. */
export interface CursorMeta {
  per_page: number
  /**
   * The cursor of the rows after this page; `null` on the last page. An empty page read backwards (every row before
   * the position deleted) gets the cursor of the rows after the position it was asked for.
   */
  next_cursor: string | null
  /**
   * The cursor of the rows before this page; `null` on the first page. An empty page after a cursor (every row past
   * the position deleted) gets the cursor of the rows before the position it was asked for.
   */
  prev_cursor: string | null
}

/** One keyset page of rows and its {@link CursorMeta}. */
export interface CursorPaginated<T> {
  data: T[]
  meta: CursorMeta
}

/** Options of `cursorPaginate`. */
export interface CursorPaginateOptions extends BoundOptions, DialectOptions {
  /**
   * The key the cursors are signed with (HMAC-SHA256), at least 32 bytes; a list for rotation: the first signs,
   * every one verifies. Required: a missing or short secret is a plain `Error`.
   */
  secret: CursorSecret
  /** How long a cursor stays valid, in seconds from when it was issued; default: for ever. */
  maxAge?: number
  /** Page size when neither the builder nor the request has a limit; default 15, as `applyQueryParams`. */
  defaultLimit?: number
}

/**
 * Runs a list query from `applyQueryParams` as a keyset page and returns `{ data, meta: { per_page, next_cursor,
 * prev_cursor } }`. The request's `cursor` (from `next_cursor` or `prev_cursor` of an earlier page) gives the
 * position: the page is the rows after it (or before it), read in the index of the order at any depth, never by
 * skipping rows. The order is the request's `orders` and the primary-key tie-breaker; every order the library
 * supports works (NULLs, mixed directions, to-one relations, counts and aggregates, `distinct`). No count runs.
 *
 * A cursor is signed with `options.secret` and bound to the request's table, conditions, orders, scopes,
 * `distinct`, every other key but `cursor`, `limit`, `page` and `offset`, and to the guard context: a changed or
 * foreign cursor is a 400 `invalid_cursor`, one of another request or caller a 400 `cursor_mismatch`, and so is
 * one older than `options.maxAge` seconds (`invalid_cursor`). A `cursor` with `page` or `offset` is a 400.
 * The builder is not changed; eager loading (`with`) runs on the page's rows.
 *
 * @throws {QueryParamsError} status 400 for a cursor it cannot serve.
 * @throws {Error} for a missing or short secret, or a builder that `applyQueryParams` did not return.
 * @example
 * const params = queryParamsFromRequest(request)                // limit=20, then cursor=…&limit=20
 * const page = await cursorPaginate(applyQueryParams(db('posts'), params, relationMap), params, { secret })
 * // { data: [… 20 posts …], meta: { per_page: 20, next_cursor: 'WzEsIm…', prev_cursor: null } }
 */
export async function cursorPaginate<T = Record<string, unknown>>(
  builder: Knex.QueryBuilder & PromiseLike<readonly T[]>,
  request: CursorRequest = {},
  options: CursorPaginateOptions,
): Promise<CursorPaginated<T>> {
  const keys = cursorKeys(options?.secret)
  const dialect = dialectOf(builder.client, options.dialect)
  const seek = seekOf(builder)
  if (seek === undefined)
    throw new Error('knex-query-params: cursorPaginate needs a builder returned by applyQueryParams')
  if (options.maxAge !== undefined && !(options.maxAge > 0))
    throw new RangeError(
      `knex-query-params: cursorPaginate maxAge must be a number of seconds above 0, got ${options.maxAge}`,
    )
  const orders = seek.orders()
  const binding = requestBinding(seek.table, seek.params, seek.context)
  const limit = limitOf(builder) ?? positive(request.limit ?? options.defaultLimit ?? APPLY_DEFAULTS.defaultLimit)
  const offset = offsetOf(builder) ?? 0
  const position =
    request.cursor === undefined
      ? undefined
      : positionOf(request, keys, binding, orders.length, options.maxAge, dialect)
  const direction: CursorDirection = position?.direction ?? 'next'

  const pages = cursorPageQueries(builder, position, limit + 1)

  const bounded = boundedRunOf(builder)
  const bound = StatementBound.of({
    timeout: options.timeout ?? bounded?.options.timeout,
    signal: options.signal ?? bounded?.options.signal,
  })
  const rows: Array<Record<string, unknown>> = []
  for (const pageOf of pages) {
    if (rows.length > limit) break
    const result = await runPage(pageOf(limit + 1 - rows.length), bound)
    if (Array.isArray(result)) rows.push(...(result as Array<Record<string, unknown>>))
  }
  const more = rows.length > limit
  const page = rows.slice(0, limit)
  if (direction === 'prev') page.reverse()
  const positions = page.map((row) => takePosition(row, orders, dialect))
  const now = Math.floor(Date.now() / 1000)
  const cursorAt = (values: readonly (string | null)[] | undefined, to: CursorDirection): string | null =>
    values === undefined ? null : encodeCursor({ binding, direction: to, values, issuedAt: now }, keys[0] as Buffer)
  const backward = direction === 'prev' ? more : position !== undefined || offset > 0
  const forward = direction === 'next' ? more : true
  // An empty page after (before) a cursor, its rows deleted: the way back starts at the position it asked for.
  const asked = page.length === 0 ? position?.values : undefined
  return {
    data: page as T[],
    meta: {
      per_page: limit,
      next_cursor: forward ? cursorAt(positions.at(-1) ?? (direction === 'prev' ? asked : undefined), 'next') : null,
      prev_cursor: backward ? cursorAt(positions[0] ?? (direction === 'next' ? asked : undefined), 'prev') : null,
    },
  }
}

const NONE: ReadonlySet<string> = new Set()

/**
 * The statements of a keyset page of `builder` (from `applyQueryParams`) at `position` (none: the first page), each
 * a function of the rows it may read: one, or two for a first order that can be NULL (see `seekConditions`); the
 * second reads only when the first had fewer rows than the page. Each reads the position values of its rows: from
 * the row itself for an order that is a selected column of the table whose driver value is exact (see
 * `positionSources`), else selected beside the row.
 */
export function cursorPageQueries(
  builder: Knex.QueryBuilder,
  position: Pick<CursorPayload, 'direction' | 'values'> | undefined,
  size: number,
): Array<(size?: number) => Knex.QueryBuilder> {
  const seek = seekOf(builder)
  if (seek === undefined)
    throw new Error('knex-query-params: cursorPaginate needs a builder returned by applyQueryParams')
  const { dialect } = seek
  const orders = seek.orders()
  const direction = position?.direction ?? 'next'
  const read = pageOrders(orders, direction)
  const offset = offsetOf(builder) ?? 0
  const parts = position === undefined ? [undefined] : seekConditions(read, position.values, cursorSqlOf(dialect))
  const reordered =
    direction === 'prev' || orders.some((order) => order.appended) ? orderList(read, dialect) : undefined
  // A row read through the read pipeline has the values of its own columns as the driver returned them (step 0).
  const sources = positionSources(
    orders,
    boundedRunOf(builder) === undefined ? NONE : listedColumnsOf(builder, seek.ref),
    dialect,
  )
  return parts.map((condition) => (rows: number = size): Knex.QueryBuilder => {
    const query = statementCopy(builder)
    if (direction === 'prev') readReversed(query)
    carryBoundedRun(query, boundedRunOf(builder))
    if (reordered !== undefined) query.clear('order').orderByRaw(reordered.sql, reordered.bindings)
    if (condition !== undefined) query.whereRaw(condition.sql, condition.bindings)
    const select = positionSelect(builder.client, Identifiers.for(builder), orders, dialect, sources.selected)
    if (select !== undefined) {
      query.select(select)
      markSeekColumns(query)
    }
    if (sources.fromRow.length > 0) seeRawRows(query, (rows) => copyPositions(rows, sources, dialect))
    query.limit(rows, { skipBinding: dialect.inlinePage })
    if (offset > 0) query.offset(offset, { skipBinding: dialect.inlinePage })
    return query
  })
}

function positionOf(
  request: CursorRequest,
  keys: readonly Buffer[],
  binding: string,
  count: number,
  maxAge: number | undefined,
  dialect: ReturnType<typeof dialectOf>,
): CursorPayload {
  const param = 'cursor'
  for (const key of ['page', 'offset'] as const) {
    if (request[key] !== undefined) {
      throw new QueryParamsError(
        `Parameter '${key}' cannot be combined with '${param}': a cursor gives the page's position.`,
        { code: 'invalid_cursor', param: key },
      )
    }
  }
  const payload = decodeCursor(request.cursor ?? '', keys, param)
  if (payload.binding !== binding) {
    throw new QueryParamsError(
      `Parameter '${param}' was issued for another request: ` +
        'a cursor is valid only with the filters, orders and caller it came from.',
      { code: 'cursor_mismatch', param },
    )
  }
  if (
    payload.values.length !== count ||
    !payload.values.every((value) => value === null || isCursorText(dialect, value))
  ) {
    throw new QueryParamsError(`Parameter '${param}' is not a cursor this server issued.`, {
      code: 'invalid_cursor',
      param,
    })
  }
  if (maxAge !== undefined && Math.floor(Date.now() / 1000) - payload.issuedAt > maxAge) {
    throw new QueryParamsError(`Parameter '${param}' has expired: request the first page again.`, {
      code: 'invalid_cursor',
      param,
    })
  }
  return payload
}

function positive(value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`knex-query-params: cursorPaginate limit must be a whole number ≥ 1, got ${value}`)
  return value
}

/** The page's rows (with eager loading, when `applyQueryParams` attached it) within `bound`. */
function runPage(query: Knex.QueryBuilder, bound: StatementBound | undefined): Promise<unknown> {
  const bounded = boundedRunOf(query)
  if (bounded !== undefined) return bounded.run(query, bound)
  return bound === undefined ? Promise.resolve(query) : runBounded(statementCopy(query), bound)
}
