import type { RelationMap } from '../relation-map.ts'
import { columnFacts } from '../validate/column-facts.ts'
import type { Condition } from '../validate/condition.ts'

/** How one relation filter is written: a correlated `exists`, or `key in (select …)`. */
export type RelationFilterForm = 'exists' | 'in'

/** Picks the form of a relation filter from the condition its related rows must meet. */
export type RelationFilterChooser = (inner: Condition) => RelationFilterForm

/**
 * The chooser for a dialect whose `filteredRelation` is `'by-selectivity'` (SQLite): `key in (select …)`
 * when the related condition is selective by declaration (see {@link selectiveByDeclaration}) or when the
 * query reads every match (no limit), where the list is built once instead of probing per base row; a
 * correlated `exists` for a page filtered by a broad condition, which stops once the page is full.
 */
export function chooseBySelectivity(map: RelationMap, paged: boolean): RelationFilterChooser {
  return (inner) => (!paged || selectiveByDeclaration(map, inner) ? 'in' : 'exists')
}

/**
 * Whether the map guarantees that `condition` matches few rows: equality or `in` on the primary key or on a
 * `unique: true` column, or a relation filter (any hop) whose own condition is selective.
 */
export function selectiveByDeclaration(map: RelationMap, condition: Condition): boolean {
  switch (condition.kind) {
    case 'test': {
      const { test } = condition
      const narrow = (test.op === 'compare' && test.operator === '=') || (test.op === 'in' && !test.negate)
      return narrow && columnFacts(map, condition.table, condition.column).unique
    }
    case 'exists':
      return condition.inner !== null && selectiveByDeclaration(map, condition.inner)
    case 'morphExists':
      return condition.branches.every(({ inner }) => inner !== null && selectiveByDeclaration(map, inner))
    case 'aggregate':
      return false
  }
}
