import { clientColumn } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import type { Row } from '../normalize/row-values.ts'
import type { Knex } from 'knex'
import type { WithNode } from '../validate/query-plan.ts'
import { parentKeyColumns } from '../validate/key-pairs.ts'

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

/** A key ready to bind: one value, or the values of a composite key's columns in order. */
export type BoundKey = Knex.Value | Knex.Value[]

/**
 * Restricts `query` to the rows whose `columns` (qualified) hold one of `keys`: `column in (?, …)` for one column,
 * `(a, b) in ((?, ?), …)` for a composite key (knex writes SQLite's as `in (values (?, ?), …)`).
 */
export function whereKeyIn(
  query: Knex.QueryBuilder,
  columns: readonly string[],
  keys: readonly BoundKey[],
): Knex.QueryBuilder {
  if (columns.length === 1) return query.whereIn(columns[0] ?? '', keys as Knex.Value[])
  return query.whereIn([...columns], keys as Knex.Value[][])
}

/**
 * The string the key of `row` is matched on, read from `properties` (one per key column): {@link keyOf} of its one
 * value, or for a composite key the JSON list of the {@link keyOf} of each value, so that a date in the tuple
 * meets the same instant whatever object the driver made of it; `null` when any value is missing (a composite
 * foreign key with a NULL column references nothing).
 */
export function rowKeyOf(row: Row, properties: readonly string[]): string | null {
  if (properties.length === 1) return keyOf(row[properties[0] ?? ''])
  const parts: string[] = []
  for (const property of properties) {
    const key = keyOf(row[property])
    if (key === null) return null
    parts.push(key)
  }
  return JSON.stringify(parts)
}

/**
 * The distinct keys of `rows` read from `properties` (distinct by {@link rowKeyOf}), ready to bind: values for one
 * column (as {@link distinctKeys}), a list of values per row for a composite key (`(a, b) in ((?, ?), …)`).
 */
export function distinctRowKeys(rows: readonly Row[], properties: readonly string[]): BoundKey[] {
  if (properties.length === 1) return distinctKeys(rows, properties[0] ?? '')
  const seen = new Map<string, Knex.Value[]>()
  for (const row of rows) {
    const key = rowKeyOf(row, properties)
    if (key === null || seen.has(key)) continue
    const bound = properties.map((property) => bindableKey(row[property]))
    if (!bound.includes(null)) seen.set(key, bound)
  }
  return [...seen.values()]
}

/** `rows` grouped by {@link rowKeyOf} over `properties`, keeping their order; rows with a missing key are left out. */
export function groupByRowKey(rows: readonly Row[], properties: readonly string[]): Map<string, Row[]> {
  if (properties.length === 1) return groupByKey(rows, properties[0] ?? '')
  const groups = new Map<string, Row[]>()
  for (const row of rows) {
    const key = rowKeyOf(row, properties)
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
    if (relation.kind === 'direct') for (const column of parentKeyColumns(relation)) keys.add(column)
    else {
      keys.add(relation.typeColumn)
      keys.add(relation.idColumn)
    }
  }
  return [...keys]
}
