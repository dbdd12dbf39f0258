import type { Dialect } from './dialect.ts'

/** PostgreSQL: `ILIKE` for case-insensitive matching, ISO 8601 instants for `timestamptz`, `bigint` casts for wide integers. */
export const postgres: Dialect = {
  name: 'postgres',
  maxInBindings: 30000,
  likeInsensitive: { sql: (column) => `${column} ilike ?`, pattern: (value) => value },
  likeSensitive: { sql: (column) => `${column} like ?`, pattern: (value) => value },
  filteredRelation: 'exists',
  nullsSortLargest: true,
  wideInteger: '?::bigint',
  bindBoolean: (value) => value,
  bindDatetime: (value) => value.iso,
}
