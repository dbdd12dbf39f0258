import type { ColumnType, RelationMap } from '../lib/index.ts'
import { columnType } from '../lib/map/columns.ts'

/** A row as a driver returns it, relations included. */
export type ApiRecord = Record<string, unknown>

const pad = (value: number, width = 2): string => String(value).padStart(width, '0')
const SQL_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$/

function serializeValue(value: unknown, type: ColumnType | undefined): unknown {
  if (typeof value === 'bigint') return Number(value)
  switch (type) {
    case 'boolean':
      return value === 0 || value === 1 || value === '0' || value === '1' ? Number(value) === 1 : value
    case 'integer':
    case 'number':
      return typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value
    case 'datetime':
      if (value instanceof Date) return value.toISOString()
      return typeof value === 'string' && SQL_TIMESTAMP.test(value)
        ? new Date(`${value.replace(' ', 'T')}Z`).toISOString()
        : value
    case 'date':
      return value instanceof Date
        ? `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`
        : value
    default:
      return value instanceof Date ? value.toISOString() : value
  }
}

/**
 * The tables a relation's rows belong to: one, or — for a `morphTo` whose type column was not selected
 * (`columns[0]=id&with[0]=imageable`) — every target table, whose column types are then merged.
 */
function relatedTables(row: ApiRecord, tables: readonly string[], key: string, map: RelationMap): string[] {
  for (const table of tables) {
    const relation = map[table]?.relations?.[key]
    if (relation === undefined) continue
    if (relation.type !== 'morphTo') return [relation.table]
    const target = relation.types[String(row[`${relation.name}_type`])]
    return target === undefined ? Object.values(relation.types) : [target]
  }
  return []
}

function serializeIn(row: ApiRecord, tables: readonly string[], map: RelationMap): ApiRecord {
  const result: ApiRecord = {}
  for (const [key, value] of Object.entries(row)) {
    const related = relatedTables(row, tables, key, map)
    if (related.length > 0 && typeof value === 'object' && value !== null) {
      result[key] = Array.isArray(value)
        ? value.map((item: ApiRecord) => serializeIn(item, related, map))
        : serializeIn(value as ApiRecord, related, map)
    } else {
      const table = tables.find((candidate) => map[candidate]?.columns[key] !== undefined)
      const spec = table === undefined ? undefined : map[table]?.columns[key]
      result[key] = serializeValue(value, spec === undefined ? undefined : columnType(spec))
    }
  }
  return result
}

/**
 * A driver's row shaped as the library's rows come (the demo serves the library's rows as they are; the
 * benchmarks' hand-written baselines shape theirs with this), the same on every database: booleans as `true`/`false` (SQLite and
 * MySQL store 0/1), timestamps as ISO 8601 UTC (`2021-02-01T10:00:00.000Z`), dates as `YYYY-MM-DD`, and
 * numeric strings of number columns as numbers; eager-loaded relations are serialised as their tables.
 *
 * @example
 * serializeRecord({ id: 1, is_admin: 1, created_at: '2021-02-01 10:00:00' }, 'users', relationMap)
 * // { id: 1, is_admin: true, created_at: '2021-02-01T10:00:00.000Z' }
 */
export function serializeRecord(row: ApiRecord, table: string, map: RelationMap): ApiRecord {
  return serializeIn(row, [table], map)
}
