import { columnFilterable, columnSortable, columnType } from '../map/columns.ts'
import { OPERATORS, type Operator } from '../query-params.ts'
import type { ColumnSpec, ColumnType } from '../relation-map.ts'

/**
 * The operators a client may filter a column with, as validation enforces them: none when it is declared
 * `filterable: false` or `json`, else its declared `operators` (default every operator), without `like` unless it is text.
 */
export function columnOperators(spec: ColumnSpec): Operator[] {
  if (!columnFilterable(spec)) return []
  const declared = typeof spec === 'object' && spec.operators !== undefined ? spec.operators : OPERATORS
  return typeOperators(columnType(spec)).filter((operator) => declared.includes(operator))
}

/** Every operator a value of `type` takes: `like` only for text. */
export function typeOperators(type: ColumnType): Operator[] {
  return OPERATORS.filter((operator) => operator !== 'like' || type === 'string')
}

/** Whether a client may order by the column (and name it in `distinct`). */
export function isSortable(spec: ColumnSpec): boolean {
  return columnSortable(spec)
}
