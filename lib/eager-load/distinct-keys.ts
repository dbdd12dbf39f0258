import type { Knex } from 'knex'
import { bindableKey } from './bindable-key.ts'
import { keyOf } from './key-of.ts'
import type { Row } from './row.ts'

/** The distinct non-null values of `rows[i][column]` (distinct by {@link keyOf}), ready to bind. */
export function distinctKeys(rows: readonly Row[], column: string): Knex.Value[] {
  const seen = new Map<string, Knex.Value>()
  for (const row of rows) {
    const value = row[column]
    const key = keyOf(value)
    const bound = bindableKey(value)
    if (key !== null && bound !== null && !seen.has(key)) seen.set(key, bound)
  }
  return [...seen.values()]
}
