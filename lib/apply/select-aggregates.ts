import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import type { QueryPlan } from '../validate/query-plan.ts'
import { joinAggregate } from './join-aggregate.ts'
import type { OrderJoins } from './order-joins.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'

/**
 * Adds each aggregate of the plan to the select list of `builder` (the rows of `ref`) under its key, as one raw
 * fragment: `(select count(*) from "comments" where …) as "comments_count"`, and returns that fragment (`undefined`
 * without aggregates). An aggregate an order joined (see `joinAggregate`) is read from its join instead, so it is not
 * computed twice: MariaDB evaluates a select-list subquery for every row it sorts. `out` is an empty writer.
 */
export function selectAggregates(
  builder: Knex.QueryBuilder,
  out: SqlWriter,
  ref: string,
  plan: QueryPlan,
  map: RelationMap,
  joins: OrderJoins | undefined,
): Knex.Raw | undefined {
  if (plan.aggregates.length === 0) return undefined
  const raw = writeSelectedAggregates(out, ref, plan, map, joins).toRaw(builder.client)
  builder.select(raw)
  return raw
}

/** Writes the select list of {@link selectAggregates} into `out` (an empty writer) and returns it. */
export function writeSelectedAggregates(
  out: SqlWriter,
  ref: string,
  plan: QueryPlan,
  map: RelationMap,
  joins: OrderJoins | undefined,
): SqlWriter {
  plan.aggregates.forEach((aggregate, index) => {
    if (index > 0) out.text(', ')
    if (joins !== undefined && plan.orders.some((order) => order.aggregate?.key === aggregate.key))
      out.text(joinAggregate(joins, aggregate, ref, map))
    else writeAggregate(out, aggregate, ref, new Set([ref]), map)
    out.text(` as ${out.names.name(aggregate.key)}`)
  })
  return out
}
