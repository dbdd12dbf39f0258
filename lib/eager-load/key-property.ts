import { clientColumn } from '../map/client-column.ts'
import type { RelationMap } from '../relation-map.ts'
import type { Row } from './row.ts'

/**
 * The property under which `rows` of `table` carry the database column `column` (a relation key): its
 * client name when the map declares it under another name and the rows were selected that way (as this
 * library selects them), else the column itself (rows a caller selected with `*` or by database name).
 */
export function keyProperty(rows: readonly Row[], map: RelationMap, table: string, column: string): string {
  const name = clientColumn(map, table, column)
  if (name === undefined || name === column) return column
  const first = rows[0]
  return first === undefined || name in first || !(column in first) ? name : column
}
