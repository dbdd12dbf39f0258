import type { Knex } from 'knex'
import type { DialectSyntax } from '../dialect/dialect-roles.ts'
import type { PagePlan } from '../plan/read-plan.ts'
import { deferredPage } from './deferred-page.ts'
import { guardedPage, type GuardedForms } from './frequency-guarded-page.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { compileAs, statementCopy } from '../knex/builder-methods.ts'
import {
  hasOrder,
  hasWheres,
  holdsRaw,
  holdsWhereRaw,
  isPlainRowList,
  limitOf,
  methodOf,
  offsetOf,
  replaceWhereRaw,
} from '../knex/builder-state.ts'
import { cutoffListProbe, listedFromBase, withOrderCutoff, type OrderCutoff } from './order-cutoff.ts'
import { ORDER_JOINS } from './order-joins.ts'
import { changeReadState, readStateOf } from './read-state.ts'
import {
  correlatedOrderProbe,
  correlatedPage,
  keptGroupsPage,
  keptGroupsProbe,
  KEPT_GROUPS_ANSWER,
  type CorrelatedOrders,
} from './correlated-order.ts'
import type { JoinedAggregateWhere } from './joined-aggregate-where.ts'
import { disjunctionPage, disjunctionServes, type DisjunctionForms } from './disjunction-page.ts'
import { cutBranch } from './cut-branch.ts'
import { walkedBranch } from './walked-branch.ts'

/** The page a query reads: its limit and offset (0 when it has none). */
export interface PageWindow {
  limit: number
  offset: number
}

/**
 * The form a guarded page is read in once its probe has run: the listing form or the walking form (see
 * {@link guardedPage}).
 */
export type GuardedForm = 'list' | 'walk'

/**
 * The form a page is read in once its probe has run: a guarded page's (see {@link GuardedForm}), or `kept`, the
 * kept-groups page of a page ordered by a count (see `keptGroupsPage`).
 */
export type ProbedForm = GuardedForm | 'kept'

/**
 * A rewrite of a page query into an equivalent form the database plans better. It receives the query as it
 * stands when it is compiled (not to be changed: it clones it to rewrite) and returns the query to compile
 * instead, or `undefined` to keep the query as it is. `form` is the form chosen for a guarded page by its probe
 * (see {@link guardProbeOf}); without one, a guarded page compiles as the one statement of both forms.
 * `probe` gives the probe of a query the rewrite would guard, and `undefined` for any other.
 */
export interface PageRewrite {
  (query: Knex.QueryBuilder, page: PageWindow, form?: ProbedForm): Knex.QueryBuilder | undefined
  probe?: (query: Knex.QueryBuilder, page: PageWindow) => Knex.Raw | undefined
}

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
    return page === undefined ? undefined : rewrite(query, page, readStateOf(query).form)
  })
  const { probe } = rewrite
  if (probe === undefined) return
  changeReadState(builder, {
    probe(query: Knex.QueryBuilder): Knex.Raw | undefined {
      const page = pageOf(query, methodOf(query) ?? 'select', ref)
      return page === undefined ? undefined : probe(query, page)
    },
  })
}

/**
 * The probe of the guarded page `builder` reads when awaited as it stands (`(select 1 from post_tag where tag_id =
 * (select …) limit 1 offset 999)`: not NULL when the key is frequent), or `undefined` when it reads no guarded page.
 * Clones have none: they compile as the plain query.
 */
export function guardProbeOf(builder: Knex.QueryBuilder): Knex.Raw | undefined {
  return readStateOf(builder).probe?.(builder)
}

/** Makes `copy` (a {@link statementCopy} of a builder with a guarded page) compile as the page in `form` only. */
export function readInForm(copy: Knex.QueryBuilder, form: ProbedForm): void {
  changeReadState(copy, { form })
}

/**
 * Marks `copy` (a {@link statementCopy} of a builder with a page rewrite) as ordered in reverse of the request's
 * orders (a keyset page before a cursor): the rewrite turns the order cutoff's direction with it, so that the page
 * keeps the form a page in the request's order gets.
 */
export function readReversed(copy: Knex.QueryBuilder): void {
  changeReadState(copy, { reversed: true })
}

/**
 * The statement of each form of the guarded page `builder` reads when awaited (what runs after its probe), or
 * `undefined` when it reads none.
 */
export function guardedFormStatements(builder: Knex.QueryBuilder): Record<GuardedForm, Knex.Sql> | undefined {
  if (guardProbeOf(builder) === undefined) return undefined
  const compiled = (form: GuardedForm): Knex.Sql => {
    const copy = statementCopy(builder)
    readInForm(copy, form)
    return copy.toSQL()
  }
  return { list: compiled('list'), walk: compiled('walk') }
}

/**
 * The rewrite of pages of `ref` (key columns `keys`) in the form the read plan chose (`plan`), or `undefined` for
 * none: with `cutoff` (the SQL of `plan.cutoff`), the bound of {@link withOrderCutoff}; else, from an offset of
 * `plan.deferFrom`, the {@link deferredPage} of an ordered query (joined back with `syntax.deferredPageJoin`). With
 * `guarded` (the forms of `plan.guard`), an ordered page is the {@link guardedPage} of both forms, the cutoff only
 * in the walking form (for a rare key, the cutoff's bound would walk the ordered table through every row). With
 * `correlated` (the orders of `plan.correlatedOrder`), a page its probe found few base rows for (the listing form)
 * has its aggregates correlated (see {@link correlatedPage}); else, with `joinedWhere`, the client's tests on an
 * aggregate the page is ordered by read the order's grouped join (see `joinedAggregateWhere`), or its relation
 * filters through the order's inner-joined hops test the joined rows (see `joinedHopsWhere`), the cutoff's bound
 * included; of a guarded page, only the walking form of a probed list (`probedListFilter`), which is the plain
 * form. With `disjunction` (the
 * branches of `plan.disjunction`), a page of rows whose query holds the client's conditions and orders is the
 * union of its branches (see {@link disjunctionPage}).
 */
export function pageRewriteFor(
  plan: PagePlan,
  syntax: Pick<DialectSyntax, 'deferredPageJoin' | 'inlinePage'>,
  names: Identifiers,
  ref: string,
  keys: readonly string[],
  cutoff: OrderCutoff | undefined,
  guarded?: GuardedForms,
  correlated?: CorrelatedOrders,
  joinedWhere?: JoinedAggregateWhere,
  disjunction?: DisjunctionForms,
): PageRewrite | undefined {
  const deferFrom = plan.deferFrom
  const listProbe = plan.cutoff?.listProbe
  // Each cut-off branch's conditions rewritten to test the rows of the hops the page joins (see `cutBranch`).
  const joinings = disjunction?.joined?.map((joined, index) => {
    const branch = disjunction.branches[index]
    return branch === undefined ? undefined : (form: Knex.QueryBuilder): void => replaceWhereRaw(form, branch, joined)
  })
  if (
    cutoff === undefined &&
    deferFrom === undefined &&
    guarded === undefined &&
    correlated === undefined &&
    joinedWhere === undefined &&
    disjunction === undefined
  )
    return undefined
  // Methods, not arrow functions assigned to names: loaders that keep function names (tsx, esbuild `keepNames`)
  // would otherwise pay a `defineProperty` for each on every request.
  const made = {
    rewrite(query: Knex.QueryBuilder, page: PageWindow, form?: ProbedForm): Knex.QueryBuilder | undefined {
      const turned =
        cutoff !== undefined && readStateOf(query).reversed === true
          ? { ...cutoff, direction: cutoff.direction === 'asc' ? ('desc' as const) : ('asc' as const) }
          : cutoff
      if (disjunction !== undefined) {
        const union = disjunctionPage(
          query.clone(),
          names,
          ref,
          keys,
          disjunction,
          page,
          syntax,
          turned !== undefined && listProbe !== undefined
            ? (branch, rows, index) => cutBranch(branch, turned, rows, listProbe, joinings?.[index])
            : disjunction.walks === undefined
              ? undefined
              : (branch, rows, index) =>
                  walkedBranch(branch, disjunction.branches[index], disjunction.walks?.[index], rows),
        )
        if (union !== undefined) return union
      }
      const ordered = hasOrder(query)
      let read = query
      let cut = turned
      const forms = guardsPage(guarded, query, page)
      if (forms !== undefined) {
        if (form === undefined) {
          const walking =
            turned === undefined
              ? undefined
              : (walk: Knex.QueryBuilder): Knex.QueryBuilder => withOrderCutoff(walk, turned, page)
          const rewritten = guardedPage(query.clone(), names, ref, keys, forms, page, walking)
          if (rewritten !== undefined) return rewritten
        } else if (form === 'list') {
          cut = undefined
          const fenced = forms.fenced?.()
          if (fenced !== undefined) {
            read = query.clone()
            replaceWhereRaw(read, forms.list, fenced)
          }
        } else {
          read = query.clone()
          replaceWhereRaw(read, forms.list, forms.walk)
        }
      }
      if (forms === undefined && form === 'list' && cutoffListRows(query, page) !== undefined) {
        cut = undefined
        read = listedFromBase(query.clone(), cutoff as OrderCutoff)
      }
      // A guarded page's chosen form reads its aggregates correlated where the plan says so without a probe.
      const rows = forms === undefined && correlated?.listedOnly === true ? undefined : correlatedRows(query, page)
      if (
        forms !== undefined &&
        rows === Number.POSITIVE_INFINITY &&
        (form === 'list' || (form === 'walk' && !correlated?.listedOnly))
      )
        read = correlatedPage(read === query ? query.clone() : read, correlated as CorrelatedOrders)
      else if (forms === undefined && rows !== undefined && form === 'kept' && correlated?.kept !== undefined)
        read = keptGroupsPage(query.clone(), correlated.kept)
      else if (forms === undefined && rows !== undefined && (form === 'list' || rows === Number.POSITIVE_INFINITY))
        read = correlatedPage(query.clone(), correlated as CorrelatedOrders)
      else if (
        joinedWhere !== undefined &&
        (forms === undefined || form === 'walk') &&
        holdsWhereRaw(read, joinedWhere.list)
      ) {
        if (read === query) read = query.clone()
        replaceWhereRaw(read, joinedWhere.list, joinedWhere.joined)
      }
      const changed = read === query ? undefined : read
      if (cut !== undefined && page.limit > 0) return withOrderCutoff(changed ?? query.clone(), cut, page)
      if (deferFrom !== undefined && page.offset >= deferFrom && ordered) {
        const deferred = deferredPage(changed ?? query.clone(), names, ref, keys, syntax.deferredPageJoin)
        if (deferred === undefined) return changed
        // The page's rows are few: their aggregates are read for them alone, not grouped over every base row again.
        return correlated !== undefined && !correlated.listedOnly && holdsRaw(deferred, 'order', correlated.order)
          ? correlatedPage(deferred, correlated)
          : deferred
      }
      return changed
    },
    probe(query: Knex.QueryBuilder, page: PageWindow): Knex.Raw | undefined {
      if (disjunction !== undefined && disjunctionServes(query, disjunction, page)) return undefined
      const forms = guardsPage(guarded, query, page)
      if (forms !== undefined) return forms.probe
      const rows = cutoffListRows(query, page)
      const correlatedProbed = correlatedRows(query, page)
      const probe =
        rows !== undefined && cutoff !== undefined
          ? cutoffListProbe(query, cutoff, rows).toSQL()
          : correlated !== undefined && correlatedProbed !== undefined && correlatedProbed !== Number.POSITIVE_INFINITY
            ? correlatedOrderProbe(query, correlated).toSQL()
            : undefined
      if (probe === undefined) return undefined
      if (correlated?.kept === undefined || rows !== undefined)
        return query.client.raw(`(${probe.sql})`, probe.bindings)
      // Few rows (NULL: correlated), else kept groups, else grouped (1), as `chooseGuardedForm` reads it.
      const kept = keptGroupsProbe(query, correlated, correlated.kept, page.offset + page.limit).toSQL()
      return query.client.raw(
        `(case when (${probe.sql}) is null then null when (${kept.sql}) is not null then ${KEPT_GROUPS_ANSWER} else 1 end)`,
        [...probe.bindings, ...kept.bindings],
      )
    },
  }
  /**
   * The rows a cut-off page's conditions must hold for it to be read with the cutoff
   * (`CutoffPlan.listProbe`), or `undefined` when no probe chooses: no guard, a page of no rows, no
   * condition (every base row is in the join), or order joins other than the cutoff's hops.
   */
  const cutoffListRows = (query: Knex.QueryBuilder, page: PageWindow): number | undefined => {
    const listGuard = plan.cutoff?.listProbe
    if (listGuard === undefined || cutoff?.listJoins === undefined || page.limit === 0 || !hasWheres(query))
      return undefined
    return Math.min(listGuard.cap, listGuard.factor * (page.offset + page.limit))
  }
  /**
   * The rows of `correlated` when the page `query` reads is one its probe chooses for: a page of rows, with
   * conditions (without, every base row is kept), in the order as written (a keyset page before its cursor is not).
   * Infinite: the page is correlated without a probe, with or without conditions (see `PagePlan.correlatedOrder`).
   * None when the conditions test an aggregate the page is ordered by and read it from the order's grouped join
   * (`joinedWhere`): the join's one pass serves the test and the order, where the probe and the correlated page each
   * ran the test's subquery per base row (users with an `or` of two relation filters and `posts_views_max < ?` by
   * `postsViewsMax`: 2.4 s → 0.67 s on PostgreSQL, 2.4 → 1.6 s on SQLite).
   */
  const correlatedRows = (query: Knex.QueryBuilder, page: PageWindow): number | undefined =>
    correlated !== undefined &&
    page.limit > 0 &&
    (correlated.rows === Number.POSITIVE_INFINITY || hasWheres(query)) &&
    holdsRaw(query, 'order', correlated.order) &&
    !(joinedWhere?.readsAggregates === true && holdsWhereRaw(query, joinedWhere.list))
      ? correlated.rows
      : undefined
  const rewrite: PageRewrite = made.rewrite
  if (
    guarded !== undefined ||
    correlated !== undefined ||
    (cutoff?.listJoins !== undefined && plan.cutoff?.listProbe !== undefined)
  )
    rewrite.probe = made.probe
  return rewrite
}

/** `guarded` when the page `query` reads is one it guards: a limit, an order, and the listing form's conditions. */
function guardsPage(
  guarded: GuardedForms | undefined,
  query: Knex.QueryBuilder,
  page: PageWindow,
): GuardedForms | undefined {
  return guarded !== undefined && page.limit > 0 && hasOrder(query) && holdsWhereRaw(query, guarded.list)
    ? guarded
    : undefined
}
