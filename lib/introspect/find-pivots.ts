import { compareText } from './compare-text.ts'
import type { SchemaForeignKey, SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/** A pivot table: two single-column foreign keys that together identify its rows, and nothing else but timestamps. */
export interface Pivot {
  table: SchemaTable
  /** The two foreign keys, ordered by their column's name. */
  keys: readonly [SchemaForeignKey, SchemaForeignKey]
}

/**
 * `created_at`, `updatedAt`, `last_update`, `ModifiedOn`…: a datetime column, whatever its name, which on a table
 * keyed by its two foreign keys only records when the link was written.
 */
function isTimestamp(table: SchemaTable, column: string): boolean {
  return table.columns.find((candidate) => candidate.name === column)?.type === 'datetime'
}

const sameColumns = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column) => right.includes(column))

/**
 * The pivot that `table` is, or `undefined`: exactly two foreign keys, each over one column, both to tables
 * for which `linkable` is true; its primary key or one of its unique constraints is exactly those two
 * columns; every other column is a datetime (`created_at`, `last_update`, …), whatever its name.
 *
 * @example
 * pivotOf(postTag, (name) => map.has(name)) // { table: postTag, keys: [post_id → posts, tag_id → tags] }
 */
export function pivotOf(table: SchemaTable, linkable: (table: string) => boolean): Pivot | undefined {
  const keys = table.foreignKeys
  if (keys.length !== 2 || keys.some((key) => key.columns.length !== 1 || !linkable(key.referencedTable)))
    return undefined
  const columns = keys.map((key) => key.columns[0] ?? '')
  if (columns[0] === columns[1]) return undefined
  if (!sameColumns(table.primaryKey, columns) && !table.uniques.some((unique) => sameColumns(unique, columns)))
    return undefined
  if (!table.columns.every((column) => columns.includes(column.name) || isTimestamp(table, column.name)))
    return undefined
  const [first, second] = [...keys].sort((left, right) => compareText(left.columns[0] ?? '', right.columns[0] ?? ''))
  return first === undefined || second === undefined ? undefined : { table, keys: [first, second] }
}
