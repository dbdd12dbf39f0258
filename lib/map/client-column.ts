import type { RelationMap } from '../relation-map.ts'
import { databaseColumn } from './database-column.ts'

const byMap = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, string>>>()

/**
 * The client's name for a database column of `table` (the inverse of {@link databaseColumn}): the key in
 * `columns` whose database column it is, or `undefined` when the map does not declare it (a key column
 * that is not allow-listed). Memoised per map object and table.
 *
 * @example
 * clientColumn(map, 'albums', 'ArtistId')  // 'artistId'
 */
export function clientColumn(map: RelationMap, table: string, column: string): string | undefined {
  let tables = byMap.get(map)
  if (tables === undefined) byMap.set(map, (tables = new Map()))
  let names = tables.get(table)
  if (names === undefined) {
    const inverse = new Map<string, string>()
    for (const name of Object.keys(map[table]?.columns ?? {})) inverse.set(databaseColumn(map, table, name), name)
    tables.set(table, (names = inverse))
  }
  return names.get(column)
}
