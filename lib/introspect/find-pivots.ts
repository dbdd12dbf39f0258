import { compareText } from './compare-text.ts'
import type { SchemaForeignKey, SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/** A pivot table: two single-column foreign keys that together identify its rows, whatever other columns it has. */
export interface Pivot {
  table: SchemaTable
  /** The two foreign keys, ordered by their column's name. */
  keys: readonly [SchemaForeignKey, SchemaForeignKey]
  /**
   * Its columns that are neither the two keys nor date-times (a `weight`, a `role`): data of the link itself,
   * which a `belongsToMany` does not reach, so such a pivot stays a table of its own too.
   */
  data: readonly string[]
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
 * columns, whatever other columns it has. Those that are not date-times (`created_at`, `last_update`, …, which
 * only record when the link was written) are its `data`.
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
  const data = table.columns
    .map((column) => column.name)
    .filter((column) => !columns.includes(column) && !isTimestamp(table, column))
  const [first, second] = [...keys].sort((left, right) => compareText(left.columns[0] ?? '', right.columns[0] ?? ''))
  return first === undefined || second === undefined ? undefined : { table, keys: [first, second], data }
}
