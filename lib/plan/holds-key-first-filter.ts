import type { RelationMap } from '../relation-map.ts'
import type { Condition, QueryPlan } from '../validate/query-plan.ts'
import { keyFirstTest } from './relation-filter-form.ts'

/**
 * Whether any relation filter in `conditions` (at any depth) could be written key first: its related rows pass
 * {@link keyFirstTest}. Without one, no writer records a key's related rows, so a page has no guarded forms.
 */
export function holdsKeyFirstFilter(map: RelationMap, conditions: Iterable<Condition>): boolean {
  for (const condition of conditions) {
    switch (condition.kind) {
      case 'exists':
        if (condition.inner === null) break
        if (keyFirstTest(map, condition.relation, condition.inner) || holdsKeyFirstFilter(map, [condition.inner]))
          return true
        break
      case 'morphExists':
        for (const { inner } of condition.branches) if (inner !== null && holdsKeyFirstFilter(map, [inner])) return true
        break
      case 'test':
      case 'aggregate':
      case 'fulltext':
        break
    }
  }
  return false
}

/** {@link holdsKeyFirstFilter} over the client's wheres and `relationsExists` of `plan`. */
export function planHoldsKeyFirstFilter(map: RelationMap, plan: Pick<QueryPlan, 'wheres' | 'exists'>): boolean {
  return (
    plan.wheres.some(({ condition }) => holdsKeyFirstFilter(map, [condition])) || holdsKeyFirstFilter(map, plan.exists)
  )
}
