import type { DialectPlanner } from '../dialect/dialect-roles.ts'
import type { QueryPlan } from '../validate/query-plan.ts'

/**
 * The offset from which an ordered page of `plan` is read as a deferred page, or `undefined` for none: the
 * dialect's `deferredPageOffset`, or, when the page selects aggregates or is ordered by one and the dialect defers
 * such pages from an offset of its own (`deferredAggregatePageOffset` for selected aggregates,
 * `deferredAggregateOrderPageOffset` for an order by an aggregate), the lower of the two, so the aggregates are
 * computed, and the rows sorted, for the page's keys only.
 */
export function deferredPageFrom(
  planner: Pick<
    DialectPlanner,
    'deferredPageOffset' | 'deferredAggregatePageOffset' | 'deferredAggregateOrderPageOffset'
  >,
  plan: Pick<QueryPlan, 'aggregates' | 'orders'>,
): number | undefined {
  const ordered = plan.orders.some((order) => order.aggregate !== undefined)
  if (plan.aggregates.length === 0 && !ordered) return planner.deferredPageOffset
  const from = Math.min(
    (plan.aggregates.length > 0 ? planner.deferredAggregatePageOffset : undefined) ?? Infinity,
    (ordered ? planner.deferredAggregateOrderPageOffset : undefined) ?? Infinity,
  )
  if (from === Infinity || (planner.deferredPageOffset ?? Infinity) <= from) return planner.deferredPageOffset
  return from
}
