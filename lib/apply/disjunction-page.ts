import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import { baseTableOf, holdsRaw, holdsWhereRaw, putLastJoinFirst, replaceWhereRaw } from '../knex/builder-state.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { deferredPage, pageKeyColumn } from './deferred-page.ts'
import type { PageWindow } from './page-rewrite.ts'

/** The client's conditions of a page as the query holds them, and as each branch of their top-level `or`. */
export interface DisjunctionForms {
  /** The conditions as the query holds them (`builder.whereRaw(list)`). */
  list: Knex.Raw
  /** Each branch: its wheres joined by `and`, and the `relationsExists`, written as `list` is. */
  branches: readonly Knex.Raw[]
  /** The request's orders as the query holds them (`builder.orderByRaw(order)`). */
  order: Knex.Raw
  /**
   * Each branch with its relation filters through the order cutoff's inner-joined hops testing the joined rows
   * (`ConditionStyle.joined`), for a cut-off branch (see `cutBranch`); `undefined` without.
   */
  joined?: readonly Knex.Raw[]
  /**
   * Each branch's walking form and the probe that picks it (see `walkedBranch`), `undefined` for a branch read as
   * written; absent for every branch (`DisjunctionPlan.walks`).
   */
  walks?: ReadonlyArray<BranchWalk | undefined>
}

/** A branch's conditions listed and walked, and the probe that picks one (see `walkedBranch`). */
export interface BranchWalk {
  /** The branch with its probed relation filters written as `in` lists. */
  listed: Knex.Raw
  /** The branch with every relation filter a correlated test. */
  walked: Knex.Raw
  /** The length probe of the listed filters: not NULL from `cap` related rows in each (see `DisjunctionPlan.walks`). */
  probe: Knex.Raw
  /** Where the probe stands: each form's limit (SQLite) or a condition outside each form. */
  at: 'limit' | 'where'
}

/** The name of the union of the branches' keys, and the prefix of each branch's name. */
const UNION = 'kqp_union'
const BRANCH = 'kqp_branch_'

/**
 * `query` (a plain builder: a clone, changed in place) as a deferred page whose keys are read from the `union`
 * of its branches (`forms.branches`): each branch is `query` with the branch in place of the client's conditions
 * (the caller's own conditions, guards and scopes kept), selecting the keys, in the page's order, limited to
 * offset + limit rows; their union (not `union all`: a row can match several branches) holds the first offset +
 * limit rows of the disjunction, since each of those is among the first of a branch it matches. The page's keys
 * are then read from the union in the page's order (its order joins joined to the union's keys), with its limit
 * and offset, and its rows by key (see {@link deferredPage}): the rows of `query`, in its order, with its ties
 * broken by the key the orders end with. A database reads each branch from an index instead of walking the whole
 * order and testing every row against the `or`. Each branch is wrapped in `select * from (…)`: SQLite allows no
 * `order by` or `limit` in a member of a compound select, PostgreSQL and MariaDB none without parentheses.
 * `undefined` when `query` does not hold `forms.list` and `forms.order` (the caller cleared them) or its base
 * table is not a plain name.
 *
 * ```sql
 * select posts.* from (
 *   select posts.id as kqp_key_0 from (
 *     select * from (select posts.id as kqp_key_0 from posts … where <branch 1> order by … limit 250) as kqp_branch_0
 *     union
 *     select * from (select posts.id as kqp_key_0 from posts … where <branch 2> order by … limit 250) as kqp_branch_1
 *   ) as kqp_union cross join posts on posts.id = kqp_union.kqp_key_0 … order by … limit 50 offset 200
 * ) as kqp_page cross join posts on posts.id = kqp_page.kqp_key_0 … order by …
 * ```
 */
export function disjunctionPage(
  query: Knex.QueryBuilder,
  names: Identifiers,
  ref: string,
  keys: readonly string[],
  forms: DisjunctionForms,
  page: PageWindow,
  { deferredPageJoin: join, inlinePage }: Pick<Dialect, 'deferredPageJoin' | 'inlinePage'>,
  branchForm: (keysOf: Knex.QueryBuilder, rows: number, index: number) => Knex.QueryBuilder = (keysOf) => keysOf,
): Knex.QueryBuilder | undefined {
  if (!disjunctionServes(query, forms, page)) return undefined
  const { client } = query
  const rows = page.offset + page.limit
  const table = baseTableOf(query)
  if (table === undefined) return undefined
  return deferredPage(query, names, ref, keys, join, (inner) => {
    const [first, ...rest] = forms.branches.map((branch, index) => {
      const keysOf = inner.clone().clear('offset').limit(rows, { skipBinding: inlinePage })
      replaceWhereRaw(keysOf, forms.list, branch)
      return client
        .queryBuilder()
        .select('*')
        .from(branchForm(keysOf, rows, index).as(`${BRANCH}${index}`))
    })
    if (first === undefined) return inner
    const candidates = inner.clear('where').from(first.union(rest).as(UNION))
    const onKeys = function (this: Knex.JoinClause): void {
      keys.forEach((key, index) => this.on(`${ref}.${key}`, '=', `${UNION}.${pageKeyColumn(index)}`))
    }
    if (join === 'cross join') candidates.crossJoin(table, onKeys)
    else candidates.join(table, onKeys)
    putLastJoinFirst(candidates)
    return candidates
  })
}

/** Whether {@link disjunctionPage} reads the page `query` reads (`page`): a limit, and the client's conditions and orders as `forms` holds them. */
export function disjunctionServes(query: Knex.QueryBuilder, forms: DisjunctionForms, page: PageWindow): boolean {
  return page.limit > 0 && holdsWhereRaw(query, forms.list) && holdsRaw(query, 'order', forms.order)
}
