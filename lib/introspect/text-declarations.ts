import type { ColumnDefinition } from '../relation-map.ts'
import type { SchemaColumn } from '../dialect/schema/schema-snapshot.ts'

/**
 * What the map declares of a text column beyond its type: an enum's `values`, and `sortable: false` for it
 * (PostgreSQL and MySQL order an enum by declaration, SQLite by text, so one order would not give the same
 * rows everywhere); `padded: true` for a fixed-length `CHAR(n)`.
 */
export function textDeclarations(column: SchemaColumn): Pick<ColumnDefinition, 'values' | 'sortable' | 'padded'> {
  if (column.values !== undefined) return { values: [...column.values], sortable: false }
  return column.padded === true ? { padded: true } : {}
}
