import { keyOf } from './key-of.ts'
import type { Row } from './row.ts'

/** `rows` grouped by {@link keyOf} `row[column]`, keeping their order; rows with a null key are left out. */
export function groupByKey(rows: readonly Row[], column: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>()
  for (const row of rows) {
    const key = keyOf(row[column])
    if (key === null) continue
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [row])
    else group.push(row)
  }
  return groups
}
