import { mysqlJoinLimitPreference } from './mysql-join-limit.ts'
import { mysqlKillQuery, mysqlLearnSession } from './mysql-kill-query.ts'
import type { Dialect } from './dialect.ts'
import { formatUtc } from './format-utc.ts'

/**
 * `like` compared character by character in the binary utf8mb4 collation, whatever the column's
 * collation: a default `_ci` collation would also ignore accents (`cafe` matching `Café`), and
 * `LIKE BINARY` compares bytes, so `_` would not match a multi-byte character such as `é`.
 */
const BINARY_PATTERN = 'convert(? using utf8mb4) collate utf8mb4_bin'

/**
 * The case-insensitive `like`: a plain `like` in `utf8mb4_general_ci` first, which ignores case and accents and
 * costs what a `_ci` column's own `like` costs (a superset of the rows, bar the few compatibility characters below),
 * then, on the rows it keeps, `lower()` on both sides in the binary collation, which is accent-sensitive: the rows
 * of PostgreSQL's `ilike`. `lower()` on every row cost ×1.25–1.36 of the column's own `like` (figure 14); the
 * prefilter leaves it to the matching rows. A character whose `lower()` is a letter it does not sort with in
 * `general_ci` (the Kelvin sign `K`, the Ohm sign `Ω`) is not found by that letter.
 */
const INSENSITIVE_LIKE = (column: string): string =>
  `(${column} like convert(? using utf8mb4) collate utf8mb4_general_ci and lower(${column}) like lower(${BINARY_PATTERN}))`

/** Each row of `explain` (the first element of mysql2's `[rows, fields]`), as JSON. */
function planLines(result: unknown): string[] {
  return (result as [unknown[], unknown])[0].map((row) => JSON.stringify(row))
}

/**
 * MySQL/MariaDB: `like` matches as on PostgreSQL — case-insensitive through `lower()` on both sides
 * (Unicode-aware, after a `general_ci` prefilter) but accent-sensitive, or exactly in sensitive mode; a backslash escapes, as MySQL's
 * default `ESCAPE`. Booleans are `TINYINT(1)` 0/1, and `DATETIME` holds UTC text (sessions must run
 * with `time_zone = '+00:00'`). `offset` without `limit` gets knex's `limit 18446744073709551615`.
 */
export const mysql: Dialect<'mysql'> = {
  name: 'mysql',
  likeInsensitive: { sql: INSENSITIVE_LIKE, pattern: (value) => value, placeholders: 2 },
  likeSensitive: { sql: (column) => `${column} like ${BINARY_PATTERN}`, pattern: (value) => value },
  filteredRelation: 'in',
  bareRelation: 'scalar',
  extremeTest: { some: 'scalar', none: 'exists' },
  listUnderMany: 'distinct',
  keyFirstRelation: 'always',
  frequencyGuard: { cap: 1000, at: 'where', walkProbe: 'scalar', orderedPivotServes: true, fencedList: false },
  listedWalk: { cap: 20_000 },
  deferredPageOffset: 300,
  deferredAggregateOrderPageOffset: 0,
  inlinePage: false,
  cutoffJoinedOrder: true,
  cutoffColumnOrder: true,
  cutoffBound: 'derived-row',
  joinFilterHops: true,
  cutoffListGuard: { factor: 4, cap: 20_000 },
  cutoffBranches: true,
  groupedJoinScan: false,
  joinedAggregateTests: true,
  topPerParent: 'window',
  cancelStatement: mysqlKillQuery,
  prepareCancel: mysqlLearnSession,
  boundedSession: mysqlJoinLimitPreference,
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
