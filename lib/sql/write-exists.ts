import { EXISTS, SCALAR_EXISTENCE } from '../dialect/existence-test.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Whether a correlated existence test is written as the scalar probe `(select 1 … limit 1) is not null`;
 * `joined` when its subquery joins a pivot to the related table.
 */
function scalar(out: SqlWriter, bare: boolean, joined: boolean): boolean {
  return out.walk === 'scalar' || (out.walk === 'scalar-one-table' && !joined) || (bare && out.dialect.bareRelation === 'scalar')
}

/**
 * Opens a correlated existence test: `exists (`, or `(` for the scalar probe, which the dialect wants for bare
 * existence (`Dialect.bareRelation`) and for every relation in its walking form (`Dialect.frequencyGuard`).
 */
export function openExists(out: SqlWriter, bare: boolean, joined: boolean): void {
  out.text((scalar(out, bare, joined) ? SCALAR_EXISTENCE : EXISTS).open)
}

/** Closes what {@link openExists} opened: `)`, or ` limit 1) is not null`. */
export function closeExists(out: SqlWriter, bare: boolean, joined: boolean): void {
  out.text((scalar(out, bare, joined) ? SCALAR_EXISTENCE : EXISTS).close)
}
