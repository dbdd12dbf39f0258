import { compareText } from './compare-text.ts'
import { nameWords } from './name-words.ts'
import type { SchemaForeignKey, SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/** A pivot table: two single-column foreign keys that together identify its rows, and nothing else but timestamps. */
export interface Pivot {
  table: SchemaTable
  /** The two foreign keys, ordered by their column's name. */
  keys: readonly [SchemaForeignKey, SchemaForeignKey]
}

const TIMESTAMP_WORDS = new Set(['created', 'updated', 'modified', 'inserted'])

/** `created_at`, `updatedAt`, `ModifiedOn`…: a datetime column that only records when the link was written. */
function isTimestamp(table: SchemaTable, column: string): boolean {
  const words = nameWords(column).map((word) => word.toLowerCase())
  const type = table.columns.find((candidate) => candidate.name === column)?.type
  return type === 'datetime' && words.length === 2 && TIMESTAMP_WORDS.has(words[0] ?? '') && (words[1] === 'at' || words[1] === 'on')
}

const sameColumns = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column) => right.includes(column))

/**
 * The pivot that `table` is, or `undefined`: exactly two foreign keys, each over one column, both to tables
 * for which `linkable` is true; its primary key or one of its unique constraints is exactly those two
 * columns; every other column is a timestamp (`created_at`, `updated_at`, …).
 *
 * @example
 * pivotOf(postTag, (name) => map.has(name)) // { table: postTag, keys: [post_id → posts, tag_id → tags] }
 */
export function pivotOf(table: SchemaTable, linkable: (table: string) => boolean): Pivot | undefined {
  const keys = table.foreignKeys
  if (keys.length !== 2 || keys.some((key) => key.columns.length !== 1 || !linkable(key.referencedTable))) return undefined
  const columns = keys.map((key) => key.columns[0] ?? '')
  if (columns[0] === columns[1]) return undefined
  if (!sameColumns(table.primaryKey, columns) && !table.uniques.some((unique) => sameColumns(unique, columns))) return undefined
  if (!table.columns.every((column) => columns.includes(column.name) || isTimestamp(table, column.name))) return undefined
  const [first, second] = [...keys].sort((left, right) => compareText(left.columns[0] ?? '', right.columns[0] ?? ''))
  return first === undefined || second === undefined ? undefined : { table, keys: [first, second] }
}
