import type { Dialect } from './dialect.ts'
import { formatUtc } from './format-utc.ts'

/** MySQL/MariaDB: `LIKE` follows the (case-insensitive) column collation, `DATETIME` holds UTC text. */
export const mysql: Dialect = {
  name: 'mysql',
  maxInBindings: 30000,
  likeInsensitive: 'like',
  likeSensitive: {
    sql: '?? like binary ?',
    pattern: (value) => value,
  },
  nullsSortLargest: false,
  bindBoolean: (value) => (value ? 1 : 0),
  bindDatetime: formatUtc,
}
