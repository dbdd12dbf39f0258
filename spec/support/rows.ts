import { relationMap } from '../../fixtures/relation-map.ts'
import type { ColumnType, RelationMap } from '../../lib/relation-map.ts'
import { columnType } from '../../lib/map/columns.ts'

/** A row as a driver returns it. */
export type Row = Record<string, unknown>

/** Declared types of a row's columns. */
export type ColumnTypes = Readonly<Record<string, ColumnType>>

/** A table of the demo relation map, whose columns and relations then drive the normalisation. */
export type DemoTableName = keyof typeof relationMap

const demoMap: RelationMap = relationMap

const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

function formatDate(value: Date): string {
  return `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`
}

function formatDatetime(value: Date): string {
  const time = `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`
  const ms = value.getUTCMilliseconds()
  return `${formatDate(value)} ${time}${ms === 0 ? '' : `.${pad(ms, 3)}`}`
}

const isPlainObject = (value: unknown): value is Row =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype

function normalizeValue(value: unknown, type: ColumnType | undefined): unknown {
  if (value instanceof Date) return type === 'date' ? formatDate(value) : formatDatetime(value)
  if (typeof value === 'bigint') return Number(value)
  if (type === 'boolean' && (value === 0 || value === 1 || value === '0' || value === '1')) return Number(value) === 1
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && value.trim() !== '') {
    const number = Number(value)
    return Number.isNaN(number) ? value : number
  }
  if (Array.isArray(value)) return value.map((item: unknown) => normalizeValue(item, undefined))
  if (isPlainObject(value)) return normalizeRow(value)
  return value
}

function relatedTable(row: Row, table: string, key: string): string | undefined {
  const relation = demoMap[table]?.relations?.[key]
  if (relation === undefined) return undefined
  if (relation.type !== 'morphTo') return relation.table
  return relation.types[String(row[`${relation.name}_type`])]
}

/**
 * A driver's row in a form comparable across databases: Dates become UTC `YYYY-MM-DD HH:MM:SS[.sss]`
 * (`YYYY-MM-DD` for `date` columns), bigints and numeric strings of `integer`/`number` columns numbers,
 * 0/1 of `boolean` columns booleans. `types` is a demo table name (its relations are normalised as that
 * related table, recursively) or explicit column types; columns without a type only get the Date and
 * bigint rules. In this harness `date` columns already come back as `YYYY-MM-DD` text on every driver.
 *
 * @example
 * expect(normalizeRows(await db.knex('users').select('id', 'is_admin'), 'users')).to.deep.equal([...])
 */
export function normalizeRow(row: Row, types: ColumnTypes | DemoTableName = {}): Row {
  const table = typeof types === 'string' ? types : undefined
  const columns: ColumnTypes =
    table === undefined
      ? (types as ColumnTypes)
      : Object.fromEntries(
          Object.entries(demoMap[table]?.columns ?? {}).map(([name, spec]) => [name, columnType(spec)]),
        )
  const normalized: Row = {}
  for (const [key, value] of Object.entries(row)) {
    const related = table === undefined ? undefined : relatedTable(row, table, key)
    if (related !== undefined && related in demoMap && value !== null && typeof value === 'object') {
      const relatedName = related as DemoTableName
      normalized[key] = Array.isArray(value)
        ? value.map((item: Row) => normalizeRow(item, relatedName))
        : normalizeRow(value as Row, relatedName)
    } else {
      normalized[key] = normalizeValue(value, columns[key])
    }
  }
  return normalized
}

/** {@link normalizeRow} over a list of rows. */
export function normalizeRows(rows: readonly Row[], types: ColumnTypes | DemoTableName = {}): Row[] {
  return rows.map((row) => normalizeRow(row, types))
}
