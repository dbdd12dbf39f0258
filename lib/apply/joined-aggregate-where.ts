import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import type { Fragment } from '../sql/fragment.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'
import type { PlannedAggregate, QueryPlan } from '../validate/query-plan.ts'
import { joinAggregate } from './join-aggregate.ts'
import type { OrderJoins } from './order-joins.ts'

/** The client's conditions as the query holds them, and the same reading the order's grouped joins. */
export interface JoinedAggregateWhere {
  readonly list: Knex.Raw
  readonly joined: Knex.Raw
  /** Whether `joined` reads an order's grouped join (else it tests the rows of joined hops: `joinedHopsWhere`). */
  readonly readsAggregates?: true
}

/**
 * The client's conditions `listed` (the raw `list` the query holds) with each test on an aggregate the page is also
 * ordered by, or joins for its where (`tested`, see `PagePlan.joinedTests`), reading the value of its grouped join
 * (`kqp_aggregate.kqp_value >= ?`) instead of its correlated subquery, or `undefined` when they test none. The join
 * holds the same value for each base row (a count of no rows 0, the others NULL), so the rows are the same; the
 * subquery ran once per base row beside the
 * join's one pass (users with `posts_views_max >= ?` ordered by `postsViewsMax`: PostgreSQL 1.6–2.0 s against
 * 0.14–0.26 s, figure 16). Only a page reads it (`pageRewriteFor`): a count drops the order joins. An aggregate whose
 * subquery carries bindings (a guard's value, a scope's) keeps its subquery.
 */
export function joinedAggregateWhere(
  client: Knex.Client,
  listed: Fragment,
  list: Knex.Raw,
  request: { plan: QueryPlan; ref: string; map: RelationMap; writer: SqlWriter },
  joins: OrderJoins,
  tested: readonly PlannedAggregate[] = [],
): JoinedAggregateWhere | undefined {
  const { plan, ref, map, writer } = request
  let sql = listed.sql
  const joined = [...plan.orders.flatMap(({ aggregate }) => (aggregate === undefined ? [] : [aggregate])), ...tested]
  for (const aggregate of joined) {
    const subquery = writer.fresh()
    writeAggregate(subquery, aggregate, ref, new Set([ref]), map)
    if (subquery.bindings.length > 0 || !sql.includes(subquery.sql)) continue
    sql = sql.split(subquery.sql).join(joinAggregate(joins, aggregate, ref, map))
  }
  return sql === listed.sql ? undefined : { list, joined: client.raw(sql, [...listed.bindings]), readsAggregates: true }
}
