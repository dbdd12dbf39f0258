import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import { deferredPage } from './deferred-page.ts'
import { guardedPage, type GuardedForms } from './guarded-page.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { compileAs } from '../knex/builder-methods.ts'
import { hasOrder, isPlainRowList, limitOf, methodOf, offsetOf } from '../knex/builder-state.ts'
import { withOrderCutoff, type OrderCutoff } from './order-cutoff.ts'
import { ORDER_JOINS } from './order-joins.ts'

/** The page a query reads: its limit and offset (0 when it has none). */
export interface PageWindow {
  limit: number
  offset: number
}

/**
 * A rewrite of a page query into an equivalent form the database plans better. It receives the query as it
 * stands when it is compiled (not to be changed: it clones it to rewrite) and returns the query to compile
 * instead, or `undefined` to keep the query as it is.
 */
export type PageRewrite = (query: Knex.QueryBuilder, page: PageWindow) => Knex.QueryBuilder | undefined

/**
 * The page `builder` reads when compiled as `method`, or `undefined` when it is not a plain page: a `select`
 * (or `first`) with a limit, of a plain row list (columns without `distinct`, `*` or aggregates, conditions,
 * orders, only the joins added for orders; no row lock or `withSchema` table).
 */
function pageOf(builder: Knex.QueryBuilder, method: string | undefined, ref: string): PageWindow | undefined {
  if (method !== 'select' && method !== 'first') return undefined
  const limit = limitOf(builder)
  if (limit === undefined || !isPlainRowList(builder, ref, ORDER_JOINS)) return undefined
  return { limit, offset: offsetOf(builder) ?? 0 }
}

/**
 * Makes `builder` compile (when awaited, and in `toSQL()`) to what `rewrite` makes of it whenever it is a
 * plain page of rows of `ref` at that moment, so the rewrite sees every condition and order the caller added
 * after `applyQueryParams`. A `.clone()` is a plain knex builder, as `countQuery` needs.
 */
export function attachPageRewrite(builder: Knex.QueryBuilder, ref: string, rewrite: PageRewrite): void {
  compileAs(builder, (query, method) => {
    const page = pageOf(query, method ?? methodOf(query) ?? 'select', ref)
    return page === undefined ? undefined : rewrite(query, page)
  })
}

/**
 * The rewrite `dialect` wants for pages of `ref` (key columns `keys`), or `undefined` for none: with
 * `cutoff` (a first order through joined hops, on a dialect with `cutoffJoinedOrder`), the bound of
 * {@link withOrderCutoff}; else, from an offset of `dialect.deferredPageOffset`, the {@link deferredPage}
 * of an ordered query. With `guarded` (a relation filter written key first, on a dialect with a
 * `frequencyGuard`), an ordered page is the {@link guardedPage} of both forms, the cutoff only in the walking
 * form (for a rare key, the cutoff's bound would walk the ordered table through every row).
 */
export function pageRewriteFor(
  dialect: Dialect,
  names: Identifiers,
  ref: string,
  keys: readonly string[],
  cutoff: OrderCutoff | undefined,
  guarded?: GuardedForms,
): PageRewrite | undefined {
  const deferFrom = dialect.deferredPageOffset
  if (cutoff === undefined && deferFrom === undefined && guarded === undefined) return undefined
  return (query, page) => {
    const ordered = hasOrder(query)
    if (guarded !== undefined && ordered && page.limit > 0) {
      const cut = cutoff === undefined ? undefined : (walk: Knex.QueryBuilder): Knex.QueryBuilder => withOrderCutoff(walk, cutoff, page)
      const rewritten = guardedPage(query.clone(), names, ref, keys, guarded, page, cut)
      if (rewritten !== undefined) return rewritten
    }
    if (cutoff !== undefined && page.limit > 0) return withOrderCutoff(query.clone(), cutoff, page)
    if (deferFrom === undefined || page.offset < deferFrom) return undefined
    return ordered ? deferredPage(query.clone(), names, ref, keys, dialect.deferredPageJoin) : undefined
  }
}
