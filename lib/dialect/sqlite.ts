import type { Dialect } from './dialect.ts'
import type { UtcInstant } from '../values.ts'
import { formatUtc } from './format-utc.ts'
import { sqliteStoppableRead } from './sqlite-stoppable-read.ts'

const globSpecials = new Set(['*', '?', '[', ']'])

/**
 * A `like` pattern as a `GLOB` pattern: `%` → `*`, `_` → `?`, a backslash-escaped character and GLOB's
 * own specials match themselves (`[*]`).
 */
function globPattern(value: string): string {
  let glob = ''
  for (let i = 0; i < value.length; i++) {
    let char = value[i] ?? ''
    const escaped = char === '\\' && i + 1 < value.length
    if (escaped) char = value[++i] ?? ''
    if (!escaped && char === '%') glob += '*'
    else if (!escaped && char === '_') glob += '?'
    else glob += globSpecials.has(char) ? `[${char}]` : char
  }
  return glob
}

/**
 * An instant in the storage its column declares: `YYYY-MM-DD HH:MM:SS[.sss]`, ISO 8601 text, epoch milliseconds or
 * seconds (a fraction kept: `>= 12:00:00.5` must leave out the row at 12:00:00), or for date-only text the day alone
 * at midnight and else the day and time, which compares after the day's text as the instant is after its midnight.
 */
function storedDatetime(value: UtcInstant): string | number {
  switch (value.storage) {
    case 'iso':
      return value.iso
    case 'epoch_ms':
      return Date.parse(value.iso)
    case 'epoch_s':
      return Date.parse(value.iso) / 1000
    case 'date':
      return value.iso.endsWith('T00:00:00.000Z') ? value.iso.slice(0, 10) : formatUtc(value)
    default:
      return formatUtc(value)
  }
}

/** The `detail` of each row of `explain query plan`. */
function planLines(result: unknown): string[] {
  return (result as Array<{ detail?: unknown }>).map((row) =>
    typeof row.detail === 'string' ? row.detail : JSON.stringify(row),
  )
}

/**
 * SQLite: booleans are 0/1, datetimes are UTC `YYYY-MM-DD HH:MM:SS` text unless the column declares
 * another `storage` (ISO 8601 text, epoch milliseconds), `LIKE` already folds ASCII case
 * (only ASCII) and gets `ESCAPE '\'` so a backslash escapes as on the other databases; case-sensitive
 * matching uses `GLOB`.
 */
export const sqlite: Dialect<'sqlite'> = {
  name: 'sqlite',
  likeInsensitive: { sql: (column) => `${column} like ? escape '\\'`, pattern: (value) => value },
  likeSensitive: { sql: (column) => `${column} glob ?`, pattern: globPattern },
  filteredRelation: 'by-selectivity',
  bareRelation: 'exists',
  extremeTest: { some: 'exists', none: 'exists' },
  listUnderMany: 'flat',
  keyFirstRelation: 'always',
  deferredPageOffset: 1000,
  correlatedAggregateOrder: { rows: 5000, keptGroups: true, cutoff: true },
  frequencyGuard: { cap: 1000, at: 'limit', walkProbe: 'scalar-to-one', orderedPivotServes: false, fencedList: false },
  inlinePage: true,
  cutoffJoinedOrder: true,
  cutoffColumnOrder: false,
  cutoffBound: 'scalar',
  joinFilterHops: false,
  cutoffListGuard: { factor: 4, cap: 20_000 },
  cutoffBranches: false,
  groupedJoinScan: true,
  joinedAggregateTests: false,
  topPerParent: 'window',
  snapshotTransaction: {},
  stoppableRead: sqliteStoppableRead,
  nullsSortLargest: false,
  bindBoolean: (value) => (value ? 1 : 0),
  bindDatetime: storedDatetime,
  deferredPageJoin: 'cross join',
  orderedJoin: 'cross join',
  explain: { sql: (query) => `explain query plan ${query}`, lines: planLines },
  explainTransaction: {},
  datetimeStorage: true,
  textColumn: (column, kind) => (kind === 'padded' ? `rtrim(${column}, ' ')` : column),
}
