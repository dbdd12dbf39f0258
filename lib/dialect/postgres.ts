import { postgresCancelRequest } from './postgres-cancel-request.ts'
import { postgresJitOff } from './postgres-jit-off.ts'
import type { Dialect } from './dialect.ts'

/** `Plan Rows` of the top node of `explain (format json)`, as node-postgres and PGlite return it. */
function planRows(result: unknown): number | undefined {
  const rows = (result as { rows?: unknown } | undefined)?.rows
  const first: unknown = Array.isArray(rows) ? rows[0] : undefined
  let plan: unknown = typeof first === 'object' && first !== null ? Object.values(first)[0] : undefined
  if (typeof plan === 'string') plan = JSON.parse(plan)
  const top: unknown = Array.isArray(plan) ? plan[0] : undefined
  const node: unknown = typeof top === 'object' && top !== null && 'Plan' in top ? top.Plan : undefined
  const estimate: unknown =
    typeof node === 'object' && node !== null && 'Plan Rows' in node ? node['Plan Rows'] : undefined
  return typeof estimate === 'number' && Number.isFinite(estimate) ? Math.round(estimate) : undefined
}

/** The `QUERY PLAN` text of each row of `explain`. */
function planLines(result: unknown): string[] {
  return (result as { rows: Array<Record<string, unknown>> }).rows.map((row) => {
    const line = row['QUERY PLAN']
    return typeof line === 'string' ? line : JSON.stringify(row)
  })
}

/**
 * PostgreSQL: `ILIKE` for case-insensitive matching, ISO 8601 instants for `timestamptz`, `bigint` casts for wide
 * integers.
 */
export const postgres: Dialect<'postgres'> = {
  name: 'postgres',
  likeInsensitive: { sql: (column) => `${column} ilike ?`, pattern: (value) => value },
  likeSensitive: { sql: (column) => `${column} like ?`, pattern: (value) => value },
  filteredRelation: 'exists',
  bareRelation: 'exists',
  extremeTest: { some: 'exists', none: 'exists' },
  listUnderMany: 'flat',
  keyFirstRelation: 'where-it-orders',
  frequencyGuard: { cap: 5000, at: 'where', walkProbe: 'exists', orderedPivotServes: true, fencedList: true },
  inlinePage: false,
  deferredAggregatePageOffset: 100,
  correlatedAggregateOrder: { rows: 5000 },
  cutoffJoinedOrder: false,
  cutoffColumnOrder: false,
  cutoffBranches: false,
  groupedJoinScan: false,
  joinedAggregateTests: false,
  cutoffBound: 'scalar',
  joinFilterHops: false,
  topPerParent: 'lateral',
  cancelStatement: (_client, connection) => postgresCancelRequest(connection),
  boundedSession: postgresJitOff,
  snapshotTransaction: { isolationLevel: 'repeatable read', readOnly: true },
  nullsSortLargest: true,
  wideInteger: '?::bigint',
  wideNumber: '?::float8',
  estimateRows: { sql: (query) => `explain (format json) ${query}`, read: planRows },
  bindBoolean: (value) => value,
  bindDatetime: (value) => value.iso,
  deferredPageJoin: 'inner join',
  orderedJoin: 'inner join',
  explain: { sql: (query) => `explain ${query}`, lines: planLines },
  explainTransaction: { readOnly: true },
  datetimeStorage: false,
  textColumn: (column, kind, use) =>
    use === 'like' || (kind === 'enum' && use === 'compare') ? `${column}::text` : column,
}
