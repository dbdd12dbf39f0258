import type { SchemaTable } from './schema-snapshot.ts'

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
const columnsKey = (columns: readonly string[]): string => columns.join('\u0000')

/**
 * A table as the snapshot gives it, the same whatever order the catalog answered in: uniques without the
 * primary key and without repeats, sorted by their columns; indexes with the primary key, without repeats,
 * sorted by their columns; foreign keys sorted by their columns, then
 * by the referenced table.
 */
export function sortTable(table: SchemaTable): SchemaTable {
  const primaryKey = columnsKey(table.primaryKey)
  const uniques = [...new Map(table.uniques.map((columns) => [columnsKey(columns), columns])).entries()]
    .filter(([key]) => key !== primaryKey)
    .sort(([a], [b]) => byCodePoint(a, b))
    .map(([, columns]) => columns)
  const indexes = [
    ...new Map(
      [table.primaryKey, ...(table.indexes ?? [])]
        .filter((columns) => columns.length > 0)
        .map((columns) => [columnsKey(columns), columns]),
    ).entries(),
  ]
    .sort(([a], [b]) => byCodePoint(a, b))
    .map(([, columns]) => columns)
  const foreignKeys = [...table.foreignKeys].sort(
    (a, b) =>
      byCodePoint(columnsKey(a.columns), columnsKey(b.columns)) || byCodePoint(a.referencedTable, b.referencedTable),
  )
  return { ...table, uniques, indexes, foreignKeys }
}

/** Tables sorted by name, by code point (`Album` before `album`). */
export function sortTables(tables: readonly SchemaTable[]): SchemaTable[] {
  return tables.map(sortTable).sort((a, b) => byCodePoint(a.name, b.name))
}
