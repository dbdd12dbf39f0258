import type { RelationMap } from '../relation-map.ts'
import { clientColumn, primaryKeyColumns } from '../map/columns.ts'

/**
 * What the map declares about one column beyond its type. A primary key column is always NOT NULL, and
 * unique when it is the whole key (a column of a composite key is not unique on its own).
 */
export interface ColumnFacts {
  nullable: boolean
  unique: boolean
}

/**
 * The declared nullability and uniqueness of the database column `table.column` (`'datetime'` alone means nullable, not
 * unique).
 */
export function columnFacts(map: RelationMap, table: string, column: string): ColumnFacts {
  const key = primaryKeyColumns(map, table)
  if (key.includes(column)) return { nullable: false, unique: key.length === 1 }
  const name = clientColumn(map, table, column)
  const spec = name === undefined ? undefined : map[table]?.columns[name]
  if (spec === undefined || typeof spec === 'string') return { nullable: true, unique: false }
  return { nullable: spec.nullable ?? true, unique: spec.unique ?? false }
}
