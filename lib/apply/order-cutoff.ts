import type { Knex } from 'knex'
import type { CutoffPlan } from '../plan/read-plan.ts'
import type { Identifiers } from '../sql/identifiers.ts'
import { copyWheres } from '../knex/builder-state.ts'
import { dropOrderJoins, type OrderJoins } from './order-joins.ts'
import { keyEquality } from '../sql/key-equality.ts'
import type { PageWindow } from './page-rewrite.ts'

/** The one-row derived table of the cutoff's bound, and its column. */
const BOUND_TABLE = 'kqp_cutoff'
const BOUND_VALUE = 'kqp_bound'

/** A first order by a column reached through inner-joined belongsTo hops, as the cutoff condition needs it. */
export interface OrderCutoff {
  /** The ordered value as the query reads it: `"users"."name"`. */
  value: string
  direction: 'asc' | 'desc'
  /**
   * The hops walked from the ordered table back to the base table: `users straight_join posts on …`
   * (`Dialect.orderedJoin`).
   */
  walk: string
  /** The ordered table alone (`users`), where the largest (or smallest) value is read. */
  orderedTable: string
  /** Written after the bound's `select` (see `CutoffPlan.selectModifier`). */
  selectModifier: string
  /** How the page reads the bound (`CutoffPlan.bound`). */
  boundForm: CutoffPlan['bound']
  /** The base table as the query names it (`posts`), where the probe of {@link cutoffListProbe} counts rows. */
  baseTable: string
  /** The name of the one-row derived table that holds the bound (see {@link withOrderCutoff}), quoted. */
  boundTable: string
  /** Its column, quoted and qualified. */
  boundValue: string
  /**
   * The order's joins from the base table out, each hop joined with `Dialect.orderedJoin` (`posts straight_join
   * users on …`: the base table first), then the joins of the later orders as written (a grouped aggregate's, another
   * hop's), when the query's order joins start with the cutoff's hops and bind nothing; else `undefined`. Posts with
   * a rare `title like` by `author.email, commentsCount` (figure 16): 2.1–2.5 s walked, 0.4 s listed after a probe.
   */
  listJoins?: string
}

/**
 * The SQL of the cutoff the read plan chose (see {@link withOrderCutoff} and `CutoffPlan`) for the order joins
 * `joins` written for it: the walk joins with `plan.join`, which keeps the ordered table first.
 */
export function orderCutoffOf(
  names: Identifiers,
  table: string,
  ref: string,
  plan: CutoffPlan,
  joins: OrderJoins,
): OrderCutoff | undefined {
  const { order, join } = plan
  if (order.via.length === 0) return columnCutoff(names, table, ref, plan, joins)
  const aliases = order.via.map((_, index) => joins.aliasOf(order.via.slice(0, index + 1)))
  const last = order.via.length - 1
  let walk = names.table(order.via[last]?.table ?? '', aliases[last] ?? '')
  for (let index = last; index >= 0; index--) {
    const relation = order.via[index]
    const alias = aliases[index]
    if (relation === undefined || alias === undefined) return undefined
    const parent = index === 0 ? ref : (aliases[index - 1] ?? '')
    const parentTable = index === 0 ? names.table(table, ref) : names.table(order.via[index - 1]?.table ?? '', parent)
    walk +=
      ` ${join} ${parentTable} on ${names.column(parent, relation.parentKey)} = ` +
      `${names.column(alias, relation.relatedKey)}`
  }
  const forward = (kind: string): string =>
    order.via
      .map(
        (relation, index) =>
          `${kind} ${names.table(relation.table, aliases[index] ?? '')} on ` +
          `${names.column(aliases[index] ?? '', relation.relatedKey)} = ` +
          `${names.column(index === 0 ? ref : (aliases[index - 1] ?? ''), relation.parentKey)}`,
      )
      .join(' ')
  // The hops come first; joins for later orders (a grouped aggregate, another hop) follow and are kept as written.
  const hops = forward('inner join')
  const { sql } = joins.out
  const listed = joins.out.bindings.length === 0 && (sql === hops || sql.startsWith(`${hops} `))
  return {
    ...boundOf(names, plan),
    value: names.column(aliases[last] ?? '', order.column),
    walk,
    orderedTable: names.table(order.via[last]?.table ?? '', aliases[last] ?? ''),
    baseTable: names.table(table, ref),
    ...(listed ? { listJoins: `${forward(join)}${sql.slice(hops.length)}` } : {}),
  }
}

/** What every cutoff of `plan` reads its bound with, whatever its first order goes through. */
function boundOf(
  names: Identifiers,
  plan: CutoffPlan,
): Pick<OrderCutoff, 'direction' | 'selectModifier' | 'boundForm' | 'boundTable' | 'boundValue'> {
  return {
    direction: plan.order.direction,
    selectModifier: plan.selectModifier,
    boundForm: plan.bound,
    boundTable: names.name(BOUND_TABLE),
    boundValue: names.column(BOUND_TABLE, BOUND_VALUE),
  }
}

/**
 * The cutoff of a first order by a column of the base table (`Dialect.cutoffColumnOrder`): the bound walks the
 * column's index in the base table, joined to the inner-joined hops of the later orders (`CutoffPlan.hops`, whose
 * rows the client's relation filters test), and the listed form is the page as written.
 */
function columnCutoff(
  names: Identifiers,
  table: string,
  ref: string,
  plan: CutoffPlan,
  joins: OrderJoins,
): OrderCutoff {
  const baseTable = names.table(table, ref)
  let walk = baseTable
  const walked = new Set<string>()
  for (const via of plan.hops) {
    let parent = ref
    via.forEach((relation, index) => {
      const alias = joins.aliasOf(via.slice(0, index + 1))
      if (!walked.has(alias))
        walk += ` ${plan.join} ${names.table(relation.table, alias)} on ${keyEquality(names, relation, alias, parent)}`
      walked.add(alias)
      parent = alias
    })
  }
  return {
    ...boundOf(names, plan),
    value: names.column(ref, plan.order.column),
    walk,
    orderedTable: baseTable,
    baseTable,
    ...(joins.out.bindings.length === 0 ? { listJoins: joins.out.sql } : {}),
  }
}

/**
 * The probe that chooses how a cut-off page is read (`Dialect.cutoffListGuard`): the `rows`-th row of the base
 * table that meets the page's conditions, NULL when they hold fewer: `(select 1 from posts where <the same
 * conditions> limit 1 offset rows − 1)`. It reads through the caller's conditions and guards only.
 */
export function cutoffListProbe(plain: Knex.QueryBuilder, cutoff: OrderCutoff, rows: number): Knex.QueryBuilder {
  const probe = plain.client.queryBuilder().select(plain.client.raw('1')).fromRaw(cutoff.baseTable)
  copyWheres(plain, probe)
  return probe.limit(1).offset(rows - 1)
}

/**
 * `plain` (a clone, changed in place) read base table first: its order joins replaced by `cutoff.listJoins`, so
 * the database filters the base rows and sorts those that remain, without the cutoff.
 */
export function listedFromBase(plain: Knex.QueryBuilder, cutoff: OrderCutoff): Knex.QueryBuilder {
  const listed = dropOrderJoins(plain)
  if (cutoff.listJoins !== undefined) listed.joinRaw(cutoff.listJoins)
  return listed
}

/**
 * `plain` (changed in place) bounded by the value of the last row of the page in the first order, read from a
 * one-row derived table: `cross join (select coalesce((select straight_join users.name from users straight_join
 * posts on … where <the same conditions> order by users.name limit 1 offset <offset + limit − 1>), (select
 * max(users.name) from users)) as kqp_bound limit 1) as kqp_cutoff … where users.name <= kqp_cutoff.kqp_bound`.
 * MySQL/MariaDB cannot read one index in the order of a column of a joined table and sort the whole join;
 * the subquery finds the bound by walking the ordered column's index (the dialect's `orderedJoin` keeps that
 * table first) and the page then joins and sorts only the rows up to it. MariaDB reads a one-row derived table
 * while it plans, so the bound is a constant for the range of the ordered column's index: compared with the
 * subquery itself, it planned a scan of the whole join and sorted it (comments by `post.views`, page 3: 1.6 s
 * against 5 ms; figure 16). SQLite (`boundForm: 'scalar'`) reads the bound as a scalar subquery in the `where`
 * instead (`users.name <= coalesce((select …), (select max(users.name) from users))`), a range of the ordered
 * column's index; it joins a derived table last, after scanning and sorting the whole join (posts by
 * `author.email, created_at`, page 3: 2.0 s against 18 ms; figure 16). Ties with the bound are kept (`<=`), and
 * when the query has fewer rows than the page the subquery is NULL and the largest value keeps every row.
 */
export function withOrderCutoff(plain: Knex.QueryBuilder, cutoff: OrderCutoff, page: PageWindow): Knex.QueryBuilder {
  const { client } = plain
  const { value, direction } = cutoff
  const bound = client
    .queryBuilder()
    .select(client.raw(`${cutoff.selectModifier}${value}`))
    .fromRaw(cutoff.walk)
  copyWheres(plain, bound)
  bound
    .orderByRaw(`${value} ${direction}`)
    .limit(1)
    .offset(page.offset + page.limit - 1)
  const extreme = `(select ${direction === 'asc' ? 'max' : 'min'}(${value}) from ${cutoff.orderedTable})`
  const compare = direction === 'asc' ? '<=' : '>='
  // knex's types leave out a builder among a raw's bindings, which it binds as a subquery.
  const bindings = [bound] as unknown as Knex.Value[]
  if (cutoff.boundForm === 'scalar') return plain.whereRaw(`${value} ${compare} coalesce(?, ${extreme})`, bindings)
  const column = cutoff.boundValue.slice(cutoff.boundValue.lastIndexOf('.') + 1)
  const boundRow = `cross join (select coalesce(?, ${extreme}) as ${column} limit 1) as ${cutoff.boundTable}`
  plain.joinRaw(boundRow, bindings)
  return plain.whereRaw(`${value} ${compare} ${cutoff.boundValue}`)
}
