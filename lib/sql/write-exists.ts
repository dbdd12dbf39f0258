import { EXISTS, SCALAR_EXISTENCE } from '../dialect/existence-test.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Whether a correlated existence test is written as the scalar probe `(select 1 … limit 1) is not null`;
 * `many` when the relation it tests is to-many (hasMany, through a pivot).
 */
function scalar(out: SqlWriter, bare: boolean, many: boolean): boolean {
  return (
    out.walk === 'scalar' || (out.walk === 'scalar-to-one' && !many) || (bare && out.dialect.bareRelation === 'scalar')
  )
}

/**
 * Opens a correlated existence test: `exists (`, or `(` for the scalar probe, which the dialect wants for bare
 * existence (`Dialect.bareRelation`) and for every relation in its walking form (`Dialect.frequencyGuard`).
 */
export function openExists(out: SqlWriter, bare: boolean, many: boolean): void {
  out.text((scalar(out, bare, many) ? SCALAR_EXISTENCE : EXISTS).open)
}

/** Closes what {@link openExists} opened: `)`, or ` limit 1) is not null`. */
export function closeExists(out: SqlWriter, bare: boolean, many: boolean): void {
  out.text((scalar(out, bare, many) ? SCALAR_EXISTENCE : EXISTS).close)
}
