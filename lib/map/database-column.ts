import type { RelationMap } from '../relation-map.ts'

/**
 * The database column behind a column the map declares under the client's name: its `column` when it is
 * aliased (`artistId: { type: 'integer', column: 'ArtistId' }` → `ArtistId`), else the name itself.
 *
 * @example
 * databaseColumn(map, 'albums', 'artistId')  // 'ArtistId'
 */
export function databaseColumn(map: RelationMap, table: string, clientName: string): string {
  const columns = map[table]?.columns
  const spec = columns !== undefined && Object.hasOwn(columns, clientName) ? columns[clientName] : undefined
  return typeof spec === 'object' && spec.column !== undefined ? spec.column : clientName
}
