import { QueryParamsError } from '../errors/query-params-error.ts'
import { databaseColumn, columnBySpelling } from '../map/columns.ts'
import type { ColumnSpec, ColumnType, DatetimeStorage, RelationMap } from '../relation-map.ts'
import { columnType } from '../map/columns.ts'

/** An allow-listed column as the client named it (`name`, the key in `columns`) and as the database does (`column`). */
export interface ResolvedColumn {
  name: string
  column: string
  type: ColumnType
  /** How a `datetime` column stores instants on SQLite; `'text'` unless declared. */
  storage: DatetimeStorage
  /** Whether a `number` column is declared single precision (`precision: 'single'`). */
  single?: boolean
}

/**
 * Finds an allow-listed column of `table` by the name the client sent: exactly, else in its other
 * spelling, snake_case or camelCase, whatever naming the map uses (`created_at` finds `createdAt`,
 * `createdAt` finds `created_at`; see `columnSpelling`). Anything else is `unknown_column`.
 */
export function resolveColumn(map: RelationMap, table: string, name: string, param: string): ResolvedColumn {
  return findColumn(map, table, name) ?? unknownColumn(map, table, name, param)
}

/**
 * {@link resolveColumn} without the error: `undefined` for a name that is no allow-listed column, so that a caller
 * spells the parameter's path (see {@link unknownColumn}) only for an error.
 */
export function findColumn(map: RelationMap, table: string, name: string): ResolvedColumn | undefined {
  const columns = map[table]?.columns ?? {}
  const key = Object.hasOwn(columns, name) ? name : columnBySpelling(map, table, name)
  if (key === undefined || !Object.hasOwn(columns, key)) return undefined
  const spec = columns[key] as ColumnSpec
  const resolved: ResolvedColumn = {
    name: key,
    column: databaseColumn(map, table, key),
    type: columnType(spec),
    storage: (typeof spec === 'string' ? undefined : spec.storage) ?? 'text',
  }
  if (typeof spec === 'object' && spec.precision === 'single') resolved.single = true
  return resolved
}

/** The `unknown_column` error of `name`, sent as `param`, on `table` (see {@link resolveColumn}). */
export function unknownColumn(map: RelationMap, table: string, name: string, param: string): never {
  const columns = map[table]?.columns ?? {}
  throw new QueryParamsError(`Parameter '${param}': '${name}' is not a column of ${table} that can be used here.`, {
    code: 'unknown_column',
    param,
    allowed: Object.keys(columns),
  })
}
