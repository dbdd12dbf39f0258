import type { Dialect } from './dialect.ts'

/** PostgreSQL: `ILIKE` for case-insensitive matching, ISO 8601 instants for `timestamptz`. */
export const postgres: Dialect = {
  name: 'postgres',
  maxInBindings: 30000,
  likeInsensitive: 'ilike',
  likeSensitive: {
    sql: '?? like ?',
    pattern: (value) => value,
  },
  nullsSortLargest: true,
  bindBoolean: (value) => value,
  bindDatetime: (value) => value.toISOString(),
}
