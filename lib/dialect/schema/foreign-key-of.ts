import type { SchemaForeignKey } from './schema-snapshot.ts'

/** One column of a named foreign-key constraint, as a catalog lists it. */
export interface ForeignKeyColumnRow {
  name: string
  column_name: string
  referenced_schema: string
  referenced_table: string
  referenced_column: string
}

/**
 * A foreign key from its column rows in constraint order; a table referenced in another schema than the one
 * read is named `schema.table`.
 */
export function foreignKeyOf(
  rows: readonly ForeignKeyColumnRow[],
  schema: string,
  enforced: boolean,
): SchemaForeignKey {
  const first = rows[0]
  if (first === undefined) throw new Error('foreignKeyOf: a foreign key has at least one column')
  return {
    name: first.name,
    columns: rows.map((row) => row.column_name),
    referencedTable:
      first.referenced_schema === schema
        ? first.referenced_table
        : `${first.referenced_schema}.${first.referenced_table}`,
    referencedColumns: rows.map((row) => row.referenced_column),
    enforced,
  }
}
