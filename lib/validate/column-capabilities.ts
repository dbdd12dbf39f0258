import { QueryParamsError } from '../errors/query-params-error.ts'
import type { Operator } from '../query-params.ts'
import type { ColumnSpec, RelationMap } from '../relation-map.ts'
import { columnFilterable, columnSortable } from '../map/columns.ts'

/**
 * The error codes of a column's declared capabilities: they hold on every path, so a `morphTo` branch never drops them.
 */
export const CAPABILITY_CODES: ReadonlySet<string> = new Set(['not_sortable', 'not_filterable', 'operator_not_allowed'])

function specOf(map: RelationMap, table: string, name: string): ColumnSpec | undefined {
  return map[table]?.columns[name]
}

function sortable(spec: ColumnSpec | undefined): boolean {
  return spec === undefined || columnSortable(spec)
}

function filterable(spec: ColumnSpec | undefined): boolean {
  return spec === undefined || columnFilterable(spec)
}

/**
 * `not_sortable` when the map declares the allow-listed column `name` (its client name) of `table` `sortable: false`
 * or `json`;
 * `allowed` lists the table's sortable columns. `why` ends the message (how the request reached the column).
 */
export function checkSortable(map: RelationMap, table: string, name: string, param: string, why = 'ordered by'): void {
  if (sortable(specOf(map, table, name))) return
  const columns = map[table]?.columns ?? {}
  throw new QueryParamsError(`Parameter '${param}': column '${name}' of ${table} cannot be ${why}.`, {
    code: 'not_sortable',
    param,
    allowed: Object.keys(columns).filter((column) => sortable(columns[column])),
  })
}

/** Where a where's column and operator were sent. */
export interface FilterParams {
  readonly column: string
  readonly operator: string
}

/**
 * `not_filterable` when the column `name` of `table` is declared `filterable: false` or `json` (`allowed`: the table's filterable
 * columns), `operator_not_allowed` when `operator` is not among its declared `operators` (`allowed`: those).
 */
export function checkFilterable(
  map: RelationMap,
  table: string,
  name: string,
  operator: Operator,
  params: FilterParams,
): void {
  const spec = specOf(map, table, name)
  if (!filterable(spec)) {
    const columns = map[table]?.columns ?? {}
    throw new QueryParamsError(`Parameter '${params.column}': column '${name}' of ${table} cannot be filtered on.`, {
      code: 'not_filterable',
      param: params.column,
      allowed: Object.keys(columns).filter((column) => filterable(columns[column])),
    })
  }
  if (typeof spec !== 'object' || spec.operators === undefined || spec.operators.includes(operator)) return
  throw new QueryParamsError(
    `Parameter '${params.operator}': column '${name}' of ${table} cannot be filtered with '${operator}'.`,
    {
      code: 'operator_not_allowed',
      param: params.operator,
      allowed: [...spec.operators],
    },
  )
}
