import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import { placeholdersIn, type Fragment } from '../sql/fragment.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'
import { writeTest } from '../sql/write-column-predicate.ts'
import { writeExtremeTest } from '../sql/write-extreme-test.ts'
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
 * 0.14–0.26 s, figure 16). A bound on a `min` or `max`, written as tests of whether related rows reach it
 * (`writeExtremeTest`), reads the joined value too (`kqp_aggregate.kqp_value >= ?`): the page joins it anyway (users with
 * `posts_views_max >= ?` ordered by `postsViewsMax`, MariaDB: 0.76 s probing each user's posts, 0.17 s). Only a page
 * reads it (`pageRewriteFor`): a count drops the order joins. An aggregate whose subquery carries bindings (a guard's
 * value, a scope's) keeps its subquery.
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
  const bindings = [...listed.bindings]
  const joined = [...plan.orders.flatMap(({ aggregate }) => (aggregate === undefined ? [] : [aggregate])), ...tested]
  const subqueryOf = (aggregate: PlannedAggregate): SqlWriter => {
    const subquery = writer.fresh()
    writeAggregate(subquery, aggregate, ref, new Set([ref]), map)
    return subquery
  }
  // The client's tests on an aggregate, each with its aggregate's subquery, written once.
  const tests = plan.wheres.flatMap(({ condition }) =>
    condition.kind === 'aggregate' ? [{ condition, subquery: subqueryOf(condition.aggregate).sql }] : [],
  )
  for (const aggregate of joined) {
    const subquery = subqueryOf(aggregate)
    if (subquery.bindings.length > 0) continue
    const value = joinAggregate(joins, aggregate, ref, map)
    if (sql.includes(subquery.sql)) sql = sql.split(subquery.sql).join(value)
    for (const { condition, subquery: tested } of tests) {
      if (tested !== subquery.sql) continue
      const extreme = writer.fresh()
      if (!writeExtremeTest(extreme, condition.aggregate, condition.test, ref, new Set([ref]), map)) continue
      const plain = writer.fresh()
      writeTest(plain, value, condition.test)
      for (let at = sql.indexOf(extreme.sql); at >= 0; at = sql.indexOf(extreme.sql, at + plain.sql.length)) {
        bindings.splice(placeholdersIn(sql.slice(0, at)), extreme.bindings.length, ...plain.bindings)
        sql = sql.slice(0, at) + plain.sql + sql.slice(at + extreme.sql.length)
      }
    }
  }
  return sql === listed.sql ? undefined : { list, joined: client.raw(sql, bindings), readsAggregates: true }
}
