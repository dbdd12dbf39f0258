import type { ColumnType } from '../relation-map.ts'

/** The map types whose columns can hold every value a column of the key type holds. */
const WIDER: Readonly<Partial<Record<ColumnType, readonly ColumnType[]>>> = {
  integer: ['number', 'bigint', 'decimal'],
  number: ['decimal'],
  bigint: ['decimal'],
}

/**
 * Whether every value a client may send for a column declared `declared` can be compared with a column the
 * database holds as `actual` (a map type): the same type, a wider number type (`integer` on a `bigint` or
 * decimal column), or the inexact `number` and `integer` declared on a `decimal` or `bigint` column (a choice
 * to get JS numbers, see `RelationMapFromSchemaOptions.exactNumbers`).
 */
export function columnTypeFits(declared: ColumnType, actual: ColumnType): boolean {
  return declared === actual || (WIDER[declared]?.includes(actual) ?? false)
}
