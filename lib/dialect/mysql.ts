import { mysqlKillQuery, mysqlLearnSession } from './mysql-kill-query.ts'
import type { Dialect } from './dialect.ts'
import { formatUtc } from './format-utc.ts'

/**
 * `like` compared character by character in the binary utf8mb4 collation, whatever the column's
 * collation: a default `_ci` collation would also ignore accents (`cafe` matching `Café`), and
 * `LIKE BINARY` compares bytes, so `_` would not match a multi-byte character such as `é`.
 */
const BINARY_PATTERN = 'convert(? using utf8mb4) collate utf8mb4_bin'

/** Each row of `explain` (the first element of mysql2's `[rows, fields]`), as JSON. */
function planLines(result: unknown): string[] {
  return (result as [unknown[], unknown])[0].map((row) => JSON.stringify(row))
}

/**
 * MySQL/MariaDB: `like` matches as on PostgreSQL — case-insensitive through `lower()` on both sides
 * (Unicode-aware) but accent-sensitive, or exactly in sensitive mode; a backslash escapes, as MySQL's
 * default `ESCAPE`. Booleans are `TINYINT(1)` 0/1, and `DATETIME` holds UTC text (sessions must run
 * with `time_zone = '+00:00'`). `offset` without `limit` gets knex's `limit 18446744073709551615`.
 */
export const mysql: Dialect<'mysql'> = {
  name: 'mysql',
  maxInBindings: 30000,
  likeInsensitive: { sql: (column) => `lower(${column}) like lower(${BINARY_PATTERN})`, pattern: (value) => value },
  likeSensitive: { sql: (column) => `${column} like ${BINARY_PATTERN}`, pattern: (value) => value },
  filteredRelation: 'in',
  bareRelation: 'scalar',
  keyFirstRelation: 'always',
  frequencyGuard: { cap: 1000, at: 'where', walkProbe: 'scalar', orderedPivotServes: true, fencedList: false },
  deferredPageOffset: 300,
  inlinePage: false,
  cutoffJoinedOrder: true,
  cutoffListGuard: { factor: 4, cap: 20_000 },
  topPerParent: 'window',
  cancelStatement: mysqlKillQuery,
  prepareCancel: mysqlLearnSession,
  snapshotTransaction: { isolationLevel: 'repeatable read' },
  nullsSortLargest: false,
  bindBoolean: (value) => (value ? 1 : 0),
  bindDatetime: formatUtc,
  exactNumber: { bigint: 'cast(? as signed)', decimal: 'cast(? as decimal(65, 30))' },
  deferredPageJoin: 'cross join',
  orderedJoin: 'straight_join',
  explain: { sql: (query) => `explain ${query}`, lines: planLines },
  explainTransaction: { readOnly: true },
  datetimeStorage: false,
}
