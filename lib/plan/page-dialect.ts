import type { Dialect } from '../dialect/dialect.ts'
import type { QueryPlan } from '../validate/query-plan.ts'

/**
 * The dialect a page of `plan` is rewritten for: `dialect` itself, or, when the page selects aggregates and the
 * dialect defers such pages from an offset of its own (`deferredAggregatePageOffset`), the dialect with its
 * `deferredPageOffset` lowered to that offset, so the aggregates are computed for the page's rows only.
 */
export function pageDialect(dialect: Dialect, plan: QueryPlan): Dialect {
  const from = dialect.deferredAggregatePageOffset
  if (from === undefined || plan.aggregates.length === 0) return dialect
  if ((dialect.deferredPageOffset ?? Infinity) <= from) return dialect
  return { ...dialect, deferredPageOffset: from }
}
