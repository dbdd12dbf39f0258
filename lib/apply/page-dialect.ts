import type { Dialect } from '../dialect/dialect.ts'
import type { QueryPlan } from '../validate/query-plan.ts'

/**
 * The dialect a page of `plan` is rewritten for: `dialect` itself, or, when the page selects aggregates and the
 * dialect defers such pages from an offset of its own (`deferredAggregatePageOffset`, and
 * `deferredAggregateOrderPageOffset` when an order is by an aggregate and another aggregate is selected), the dialect with its `deferredPageOffset`
 * lowered to that offset, so the aggregates are computed for the page's rows only.
 */
export function pageDialect(dialect: Dialect, plan: QueryPlan): Dialect {
  if (plan.aggregates.length === 0) return dialect
  const ordered = new Set(plan.orders.flatMap((order) => (order.aggregate === undefined ? [] : [order.aggregate.key])))
  // An aggregate the page is ordered by is read from the order's join; any other is a correlated subquery.
  const correlated = ordered.size > 0 && plan.aggregates.some((aggregate) => !ordered.has(aggregate.key))
  const from = Math.min(
    dialect.deferredAggregatePageOffset ?? Infinity,
    (correlated ? dialect.deferredAggregateOrderPageOffset : undefined) ?? Infinity,
  )
  if (from === Infinity || (dialect.deferredPageOffset ?? Infinity) <= from) return dialect
  return { ...dialect, deferredPageOffset: from }
}
