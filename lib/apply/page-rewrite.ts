import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import { deferredPage } from './deferred-page.ts'
import { guardedPage, type GuardedForms } from './guarded-page.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { internalsOf, type KnexStatement } from '../knex/knex-internals.ts'
import { withOrderCutoff, type OrderCutoff } from './order-cutoff.ts'
import { isOrderJoin } from './order-joins.ts'

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

type ToSql = (this: Knex.QueryBuilder, method?: string, tz?: unknown) => Knex.Sql

const flagged = (statement: KnexStatement, name: string): boolean => Object.getOwnPropertyDescriptor(statement, name)?.value === true

/**
 * Whether a statement leaves the query a plain list of base-table rows that a rewrite may reshape: columns
 * without `distinct`, `*` or aggregates, conditions, orders, and only the joins added for orders.
 */
function plainStatement(statement: KnexStatement, ref: string): boolean {
  switch (statement.grouping) {
    case 'where':
    case 'order':
      return true
    case 'join':
      return isOrderJoin(statement)
    case 'columns': {
      if (statement.type !== undefined) return false
      if (flagged(statement, 'distinct') || flagged(statement, 'distinctOn')) return false
      const values = Array.isArray(statement.value) ? (statement.value as unknown[]) : [statement.value]
      return !values.some((value) => value === '*' || value === `${ref}.*`)
    }
    default:
      return false
  }
}

/**
 * The page `builder` reads when compiled as `method`, or `undefined` when it is not a plain page: a `select`
 * (or `first`) with a limit, without a row lock or a `withSchema` table, and only plain statements.
 */
function pageOf(builder: Knex.QueryBuilder, method: string | undefined, ref: string): PageWindow | undefined {
  const internals = internalsOf(builder)
  if (method !== 'select' && method !== 'first') return undefined
  const { limit, offset, lock, schema } = internals._single
  if (typeof limit !== 'number' || lock !== undefined || schema !== undefined) return undefined
  if (!internals._statements.every((statement) => plainStatement(statement, ref))) return undefined
  return { limit, offset: typeof offset === 'number' ? offset : 0 }
}

/**
 * Makes `builder` compile (when awaited, and in `toSQL()`) to what `rewrite` makes of it whenever it is a
 * plain page of rows of `ref` at that moment, so the rewrite sees every condition and order the caller added
 * after `applyQueryParams`. A `.clone()` is a plain knex builder, as `countQuery` needs.
 */
export function attachPageRewrite(builder: Knex.QueryBuilder, ref: string, rewrite: PageRewrite): void {
  const compile = (Object.getPrototypeOf(builder) as { toSQL: ToSql }).toSQL
  const methods: { toSQL: ToSql } = {
    toSQL(method, tz) {
      const page = pageOf(this, method ?? internalsOf(this)._method ?? 'select', ref)
      const rewritten = page === undefined ? undefined : rewrite(this, page)
      return compile.call(rewritten ?? this, method, tz)
    },
  }
  Object.defineProperty(builder, 'toSQL', { value: methods.toSQL, configurable: true, writable: true })
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
    const ordered = internalsOf(query)._statements.some((statement) => statement.grouping === 'order')
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
