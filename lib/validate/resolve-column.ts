import { QueryParamsError } from '../errors/query-params-error.ts'
import { databaseColumn, spellingsOf } from '../map/columns.ts'
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
  return columnsByName(map, table).get(name)
}

const resolvedByMap = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, ResolvedColumn>>>()

/**
 * Every name that finds an allow-listed column of `table` (its key, else one of its spellings: see
 * `columnBySpelling`) with the column it finds, each resolved once per map object and table: a where or order of
 * every request looks its column up here. Bounded by the map (the names the client sends are not kept).
 */
function columnsByName(map: RelationMap, table: string): ReadonlyMap<string, ResolvedColumn> {
  let tables = resolvedByMap.get(map)
  if (tables === undefined) resolvedByMap.set(map, (tables = new Map()))
  let byName = tables.get(table)
  if (byName === undefined) {
    const columns = map[table]?.columns ?? {}
    const keys = Object.keys(columns)
    const resolved = new Map<string, ResolvedColumn>()
    for (const key of keys) resolved.set(key, resolvedOf(map, table, key, columns[key] as ColumnSpec))
    const found = new Map<string, ResolvedColumn>()
    for (const [spelling, key] of spellingsOf(keys)) found.set(spelling, resolved.get(key) as ResolvedColumn)
    // A column's own key finds it before any other column's spelling does.
    for (const [key, column] of resolved) found.set(key, column)
    tables.set(table, (byName = found))
  }
  return byName
}

function resolvedOf(map: RelationMap, table: string, key: string, spec: ColumnSpec): ResolvedColumn {
  const resolved: ResolvedColumn = {
    name: key,
    column: databaseColumn(map, table, key),
    type: columnType(spec),
    storage: (typeof spec === 'string' ? undefined : spec.storage) ?? 'text',
  }
  if (typeof spec === 'object' && spec.precision === 'single') resolved.single = true
  return Object.freeze(resolved)
}

/** Whether `name` finds an allow-listed column of `table` (see {@link findColumn}). */
export function isColumnName(map: RelationMap, table: string, name: string): boolean {
  return columnsByName(map, table).has(name)
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
