import type { ColumnSpec, ColumnType } from '../relation-map.ts'

/** The declared type of a column, whichever form it was declared in (`'datetime'` or `{ type: 'datetime', … }`). */
export function columnType(spec: ColumnSpec): ColumnType {
  return typeof spec === 'string' ? spec : spec.type
}
