import type { RelationMap } from '../relation-map.ts'
import { primaryKeyOf } from './resolve-relation.ts'

/** What the map declares about one column beyond its type. The primary key is always NOT NULL and unique. */
export interface ColumnFacts {
  nullable: boolean
  unique: boolean
}

/** The declared nullability and uniqueness of `table.column` (`'datetime'` alone means nullable, not unique). */
export function columnFacts(map: RelationMap, table: string, column: string): ColumnFacts {
  if (column === primaryKeyOf(map, table)) return { nullable: false, unique: true }
  const spec = map[table]?.columns[column]
  if (spec === undefined || typeof spec === 'string') return { nullable: true, unique: false }
  return { nullable: spec.nullable ?? true, unique: spec.unique ?? false }
}
