import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ColumnSpec, ColumnType, RelationMap } from '../relation-map.ts'
import { columnType } from './column-type.ts'
import { snakeCase } from './snake-case.ts'

/**
 * Finds an allow-listed column of `table` by the name the client sent: exactly, or after
 * camelCase → snake_case (`createdAt` → `created_at`). Anything else is `unknown_column`.
 */
export function resolveColumn(map: RelationMap, table: string, name: string, param: string): { column: string; type: ColumnType } {
  const columns = map[table]?.columns ?? {}
  if (Object.hasOwn(columns, name)) return { column: name, type: columnType(columns[name] as ColumnSpec) }
  const snake = snakeCase(name)
  if (Object.hasOwn(columns, snake)) return { column: snake, type: columnType(columns[snake] as ColumnSpec) }
  throw new QueryParamsError(`Parameter '${param}': '${name}' is not a column of ${table} that can be used here.`, {
    code: 'unknown_column',
    param,
    allowed: Object.keys(columns),
  })
}
