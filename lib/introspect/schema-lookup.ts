import type { SchemaColumn, SchemaTable } from './schema-snapshot.ts'

/** Tables and columns of a snapshot by name, for checks that ask about many of them. */
export interface SchemaLookup {
  table(name: string): SchemaTable | undefined
  column(table: string, column: string): SchemaColumn | undefined
}

/** A {@link SchemaLookup} over `tables`. */
export function schemaLookup(tables: readonly SchemaTable[]): SchemaLookup {
  const byName = new Map(tables.map((table) => [table.name, { table, columns: new Map(table.columns.map((column) => [column.name, column])) }]))
  return {
    table: (name) => byName.get(name)?.table,
    column: (table, column) => byName.get(table)?.columns.get(column),
  }
}
