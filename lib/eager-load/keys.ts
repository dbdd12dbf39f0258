import { clientColumn } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import type { Row } from '../normalize/row-values.ts'
import type { Knex } from 'knex'
import type { WithNode } from '../validate/query-plan.ts'

/**
 * The string a key value is matched on, so that `1`, `1n` and `'1'` meet; `null` for a missing key.
 * Binary keys match on their hex, dates on their ISO instant.
 */
export function keyOf(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return `\u0000hex:${Buffer.from(value).toString('hex')}`
  if (value instanceof Date) return value.toISOString()
  return String(value)
}

/**
 * The property under which `rows` of `table` carry the database column `column` (a relation key): its
 * client name when the map declares it under another name and the rows were selected that way (as this
 * library selects them), else the column itself (rows a caller selected with `*` or by database name).
 */
export function keyProperty(rows: readonly Row[], map: RelationMap, table: string, column: string): string {
  const name = clientColumn(map, table, column)
  if (name === undefined || name === column) return column
  const first = rows[0]
  return first === undefined || name in first || !(column in first) ? name : column
}

/** A key value read from a row, as it can be bound in `IN (…)`; `null` when it cannot be bound. */
export function bindableKey(value: unknown): Knex.Value {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (value instanceof Date || Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value)
  return null
}

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

/**
 * The columns the parent rows must carry for `nodes` to be eager-loaded onto them: the parent key of
 * each direct relation (e.g. `team_id` for belongsTo team, `id` for hasMany posts), the type and id
 * columns of each morphTo (e.g. `imageable_type`, `imageable_id`). Distinct, in order of appearance.
 */
export function parentKeysFor(nodes: readonly WithNode[]): string[] {
  const keys = new Set<string>()
  for (const { relation } of nodes) {
    if (relation.kind === 'direct') keys.add(relation.parentKey)
    else {
      keys.add(relation.typeColumn)
      keys.add(relation.idColumn)
    }
  }
  return [...keys]
}
