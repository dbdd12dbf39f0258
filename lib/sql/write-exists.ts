import { EXISTS, SCALAR_EXISTENCE } from '../dialect/existence-test.ts'
import type { ConditionStyle } from '../plan/condition-style.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Whether a correlated existence test is written as the scalar probe `(select 1 … limit 1) is not null`;
 * `many` when the relation it tests is to-many (hasMany, through a pivot).
 */
function scalar(style: ConditionStyle, bare: boolean, many: boolean): boolean {
  return style.walk === 'scalar' || (style.walk === 'scalar-to-one' && !many) || (bare && style.bare === 'scalar')
}

/**
 * Opens a correlated existence test: `exists (`, or `(` for the scalar probe, which the style wants for bare
 * existence (`Dialect.bareRelation`) and for every relation in a guarded page's walking form
 * (`Dialect.frequencyGuard`).
 */
export function openExists(out: SqlWriter, style: ConditionStyle, bare: boolean, many: boolean): void {
  out.text((scalar(style, bare, many) ? SCALAR_EXISTENCE : EXISTS).open)
}

/** Closes what {@link openExists} opened: `)`, or ` limit 1) is not null`. */
export function closeExists(out: SqlWriter, style: ConditionStyle, bare: boolean, many: boolean): void {
  out.text((scalar(style, bare, many) ? SCALAR_EXISTENCE : EXISTS).close)
}
