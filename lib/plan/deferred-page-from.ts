import type { DialectPlanner } from '../dialect/dialect-roles.ts'
import type { QueryPlan } from '../validate/query-plan.ts'

/**
 * The offset from which an ordered page of `plan` is read as a deferred page, or `undefined` for none: the
 * dialect's `deferredPageOffset`, or, when the page selects aggregates and the dialect defers such pages from an
 * offset of its own (`deferredAggregatePageOffset`), the lower of the two, so the aggregates are computed for the
 * page's rows only.
 */
export function deferredPageFrom(
  planner: Pick<DialectPlanner, 'deferredPageOffset' | 'deferredAggregatePageOffset'>,
  plan: Pick<QueryPlan, 'aggregates'>,
): number | undefined {
  const from = planner.deferredAggregatePageOffset
  if (from === undefined || plan.aggregates.length === 0) return planner.deferredPageOffset
  if ((planner.deferredPageOffset ?? Infinity) <= from) return planner.deferredPageOffset
  return from
}
