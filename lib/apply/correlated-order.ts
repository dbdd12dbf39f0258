import type { Knex } from 'knex'
import { copyWheres, replaceRaw } from '../knex/builder-state.ts'
import { dropOrderJoins, ORDER_JOINS } from './order-joins.ts'
import type { JoinsSql } from './join-aggregate.ts'

/**
 * A page ordered by an aggregate, as the probe of `PagePlan.correlatedOrder` needs it: its order and its selected
 * aggregates as written (the aggregates an order joined read from the grouped join), and the same written as
 * correlated subqueries, written when a read first needs them.
 */
export interface CorrelatedOrders {
  /** The base rows from which the grouped join is kept: the probe reads the `rows`-th. */
  readonly rows: number
  /** Whether only a guarded page's listing form is correlated (`PagePlan.correlatedOrder`'s `listedOnly`). */
  readonly listedOnly?: true
  /** The base table as the query names it (`users`, `users as u`), where the probe counts rows. */
  readonly baseTable: string
  /** The query's `order by` fragment. */
  readonly order: Knex.Raw
  /** The query's selected aggregates, or `undefined` when it selects none. */
  readonly select: Knex.Raw | undefined
  /** The order and the selected aggregates with every aggregate a correlated subquery (and no order join). */
  readonly correlated: () => { readonly order: Knex.Raw; readonly select: Knex.Raw | undefined }
  /**
   * The order joins with the first order's grouped join an inner join (see `PagePlan.correlatedOrder`'s `kept`), and
   * `has`, the test that a base row has rows of that join's groups (`exists (select 1 from posts where posts.user_id =
   * users.id …)`, its guards and scope as the groups'); or `undefined`.
   */
  readonly kept?: JoinsSql & { readonly has: JoinsSql }
}

/**
 * The probe that chooses how a page ordered by an aggregate is read: the `rows`-th row of the base table that meets
 * the page's conditions, NULL when they hold fewer: `(select 1 from users where <the same conditions> limit 1 offset
 * rows − 1)`. It reads through the caller's conditions and guards only, so a remembered choice is one per guard
 * context.
 */
export function correlatedOrderProbe(plain: Knex.QueryBuilder, orders: CorrelatedOrders): Knex.QueryBuilder {
  const probe = plain.client.queryBuilder().select(plain.client.raw('1')).fromRaw(orders.baseTable)
  copyWheres(plain, probe)
  return probe.limit(1).offset(orders.rows - 1)
}

/**
 * `plain` (a clone, changed in place) with its aggregates correlated: the order joins dropped, the order and the
 * selected aggregates replaced by their correlated form, computed for the rows the conditions keep only.
 */
export function correlatedPage(plain: Knex.QueryBuilder, orders: CorrelatedOrders): Knex.QueryBuilder {
  const { order, select } = orders.correlated()
  const read = dropOrderJoins(plain)
  replaceRaw(read, 'order', orders.order, order)
  if (orders.select !== undefined && select !== undefined) replaceRaw(read, 'columns', orders.select, select)
  return read
}

/** What the probe of a page ordered by an aggregate answers when it chose the kept-groups page. */
export const KEPT_GROUPS_ANSWER = 2

/**
 * The probe that chooses the kept-groups page (see {@link keptGroupsPage}) before the probe of
 * {@link correlatedOrderProbe}: the (offset + limit)-th base row that meets the page's conditions and has related
 * rows of its first order, NULL when fewer have: `(select 1 from users where <the same conditions> and exists (select
 * 1 from posts where posts.user_id = users.id) limit 1 offset rows − 1)`. Each row is tested through the foreign key's
 * index: joined to the grouped join instead, the probe grouped every post (users with an `or` of `posts.views`
 * tests by `postsCount, postsViewsMax`, SQLite: 390 ms, 120 ms tested). Through the caller's conditions and guards
 * only, as that probe.
 */
export function keptGroupsProbe(
  plain: Knex.QueryBuilder,
  orders: CorrelatedOrders,
  kept: NonNullable<CorrelatedOrders['kept']>,
  rows: number,
): Knex.QueryBuilder {
  const probe = plain.client.queryBuilder().select(plain.client.raw('1')).fromRaw(orders.baseTable)
  copyWheres(plain, probe)
  return probe
    .whereRaw(kept.has.sql, [...kept.has.bindings])
    .limit(1)
    .offset(rows - 1)
}

/**
 * `plain` (a clone, changed in place) with the first order's grouped join an inner join (`kept`): when the
 * (offset + limit)-th row of the page has related rows, so has every row before it (a count or an exists,
 * descending, puts the rows without any last), and the database reads the groups and the base rows they name
 * instead of every base row.
 */
export function keptGroupsPage(
  plain: Knex.QueryBuilder,
  kept: NonNullable<CorrelatedOrders['kept']>,
): Knex.QueryBuilder {
  const read = dropOrderJoins(plain)
  read.joinRaw(kept.sql, [...kept.bindings])
  ORDER_JOINS.markLast(read)
  return read
}
