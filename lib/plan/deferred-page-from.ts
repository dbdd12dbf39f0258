import type { DialectPlanner } from '../dialect/dialect-roles.ts'
import type { QueryPlan } from '../validate/query-plan.ts'

/**
 * The offset from which an ordered page of `plan` is read as a deferred page, or `undefined` for none: the
 * dialect's `deferredPageOffset`, or, when the page selects aggregates and the dialect defers such pages from an
 * offset of its own (`deferredAggregatePageOffset`, and `deferredAggregateOrderPageOffset` when an order is by an
 * aggregate and another aggregate is selected), the lower of the two, so the aggregates are computed for the page's
 * rows only.
 */
export function deferredPageFrom(
  planner: Pick<
    DialectPlanner,
    'deferredPageOffset' | 'deferredAggregatePageOffset' | 'deferredAggregateOrderPageOffset'
  >,
  plan: Pick<QueryPlan, 'aggregates' | 'orders'>,
): number | undefined {
  if (plan.aggregates.length === 0) return planner.deferredPageOffset
  const ordered = new Set(plan.orders.flatMap((order) => (order.aggregate === undefined ? [] : [order.aggregate.key])))
  // An aggregate the page is ordered by is read from the order's join; any other is a correlated subquery.
  const correlated = ordered.size > 0 && plan.aggregates.some((aggregate) => !ordered.has(aggregate.key))
  const from = Math.min(
    planner.deferredAggregatePageOffset ?? Infinity,
    (correlated ? planner.deferredAggregateOrderPageOffset : undefined) ?? Infinity,
  )
  if (from === Infinity || (planner.deferredPageOffset ?? Infinity) <= from) return planner.deferredPageOffset
  return from
}
