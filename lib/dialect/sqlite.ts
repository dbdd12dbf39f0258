import type { Dialect } from './dialect.ts'
import { formatUtc } from './format-utc.ts'

const globSpecials = /[*?[\]]/g

/** SQLite: booleans are 0/1, datetimes are UTC `YYYY-MM-DD HH:MM:SS` text, `LIKE` already folds ASCII case. */
export const sqlite: Dialect = {
  name: 'sqlite',
  maxInBindings: 30000,
  likeInsensitive: 'like',
  likeSensitive: {
    sql: '?? glob ?',
    pattern: (value) => value.replace(globSpecials, (c) => `[${c}]`).replace(/%/g, '*').replace(/_/g, '?'),
  },
  nullsSortLargest: false,
  bindBoolean: (value) => (value ? 1 : 0),
  bindDatetime: formatUtc,
}
