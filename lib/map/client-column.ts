import type { RelationMap } from '../relation-map.ts'
import { databaseColumn } from './database-column.ts'

/**
 * The client's name for a database column of `table` (the inverse of {@link databaseColumn}): the key in
 * `columns` whose database column it is, or `undefined` when the map does not declare it (a key column
 * that is not allow-listed).
 *
 * @example
 * clientColumn(map, 'albums', 'ArtistId')  // 'artistId'
 */
export function clientColumn(map: RelationMap, table: string, column: string): string | undefined {
  for (const name of Object.keys(map[table]?.columns ?? {})) if (databaseColumn(map, table, name) === column) return name
  return undefined
}
