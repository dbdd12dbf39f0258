import type { RelationMap } from '../relation-map.ts'

/**
 * The database columns of a table's primary key, in key order: one for a single-column key (default `id`),
 * several for a composite key declared as `primaryKey: ['playlist_id', 'track_id']`.
 *
 * @example
 * primaryKeyColumns(map, 'playlist_tracks')  // ['playlist_id', 'track_id']
 */
export function primaryKeyColumns(map: RelationMap, table: string): readonly string[] {
  const key = map[table]?.primaryKey ?? 'id'
  return typeof key === 'string' ? [key] : key
}
