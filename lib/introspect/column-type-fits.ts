import type { ColumnType } from '../relation-map.ts'

/**
 * Whether every value a client may send for a column declared `declared` can be compared with a column the
 * database holds as `actual` (a map type): the same type, or `integer` on a decimal column.
 */
export function columnTypeFits(declared: ColumnType, actual: ColumnType): boolean {
  return declared === actual || (declared === 'integer' && actual === 'number')
}
