import type { DirectRelation, MorphTarget, MorphToResolved } from './resolved-relation.ts'
import type { ExactNumber } from './exact-number.ts'
import type { UtcInstant } from './utc-instant.ts'

/** A client value after coercion to its column's type, before the dialect binds it. */
export type CoercedValue = string | number | boolean | UtcInstant | ExactNumber

/** What a condition checks on one column. */
export type Test =
  | { op: 'null'; negate: boolean }
  | { op: 'compare'; operator: '=' | '!=' | '<' | '<=' | '>' | '>='; value: CoercedValue }
  | { op: 'like'; pattern: string }
  | { op: 'in'; negate: boolean; values: CoercedValue[]; withNull: boolean }
  | { op: 'between'; negate: boolean; low: CoercedValue; high: CoercedValue }

/**
 * A validated condition, ready to apply: a test on a column of the current table, or the existence
 * of related rows (optionally satisfying an inner condition). `morphTo` branches into one existence
 * check per target table.
 */
export type Condition =
  | { kind: 'test'; table: string; column: string; test: Test }
  | { kind: 'exists'; relation: DirectRelation; inner: Condition | null }
  | { kind: 'morphExists'; relation: MorphToResolved; branches: Array<{ target: MorphTarget; inner: Condition | null }> }
