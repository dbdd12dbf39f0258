import type { SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { columnSortable, databaseColumn } from '../map/columns.ts'
import type { RelationMap, ColumnSpec } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'

/**
 * The columns of `table` an index serves as an order: the first column of each of its indexes and of its
 * primary key. An order on any other column sorts every matching row before a page can be cut.
 *
 * @example
 * orderServedColumns({ ...posts, primaryKey: ['id'], indexes: [['user_id', 'created_at']] }) // Set { 'id', 'user_id' }
 */
export function orderServedColumns(table: SchemaTable): Set<string> {
  const served = new Set<string>()
  for (const columns of [table.primaryKey, ...(table.indexes ?? [])])
    if (columns[0] !== undefined) served.add(columns[0])
  return served
}

/**
 * A `sortable_without_index` warning for each declared column of `name` that is sortable (not declared
 * `sortable: false`, not `json`), exists in the database, and leads no index nor the primary key of `table`.
 */
export function checkSortIndexes(map: RelationMap, name: string, table: SchemaTable): RelationMapProblem[] {
  const definition = map[name]
  if (definition === undefined) return []
  const served = orderServedColumns(table)
  const problems: RelationMapProblem[] = []
  for (const [clientName, spec] of Object.entries(definition.columns)) {
    if (!columnSortable(spec)) continue
    const column = databaseColumn(map, name, clientName)
    if (served.has(column) || !table.columns.some((each) => each.name === column)) continue
    const message =
      `${name}.${column} is sortable, but no index of ${name} starts with it: an order on it sorts ` +
      `every matching row; add an index or declare sortable: false`
    problems.push(relationMapProblem('sortable_without_index', `${name}.columns.${clientName}`, message))
  }
  if (table.partitionLocalIndexes === true) problems.push(...checkPartitionedOrders(map, name, table, served))
  return problems
}

/**
 * On a partitioned table whose indexes are per partition (MySQL/MariaDB), a `sortable_partitioned_index` warning
 * for each sortable column that leads an index, but no index that goes on with the primary key: the tie-breaker
 * every paged order ends with (`order by created_at, id`) then sorts every matching row.
 */
function checkPartitionedOrders(
  map: RelationMap,
  name: string,
  table: SchemaTable,
  served: Set<string>,
): RelationMapProblem[] {
  const definition = map[name]
  if (definition === undefined || table.primaryKey.length === 0) return []
  const key = table.primaryKey
  const goesOnWithKey = (index: readonly string[], column: string): boolean =>
    index[0] === column && key.every((part, at) => index[at + 1] === part)
  const problems: RelationMapProblem[] = []
  for (const [clientName, spec] of Object.entries(definition.columns)) {
    if (!columnSortable(spec)) continue
    const column = databaseColumn(map, name, clientName)
    if (!served.has(column) || key[0] === column) continue
    if ([key, ...(table.indexes ?? [])].some((index) => goesOnWithKey(index, column))) continue
    const wanted = [column, ...key.filter((part) => part !== column)].join(', ')
    const message =
      `${name} is partitioned, and its indexes are per partition: an index on (${column}) does not serve ` +
      `order by ${[column, ...key].join(', ')}, so a page sorts every matching row; create index on ${name} (${wanted})`
    problems.push(relationMapProblem('sortable_partitioned_index', `${name}.columns.${clientName}`, message))
  }
  return problems
}

/**
 * Declares `sortable: false` on each column of `columns` (client name → spec; `clientNames` maps database
 * columns to client names) that no index of `table` serves as an order, and reports them in one notice.
 */
export function unsortUnindexed(
  table: SchemaTable,
  columns: Record<string, ColumnSpec>,
  clientNames: ReadonlyMap<string, string>,
  notices: IntrospectionNotice[],
): void {
  const served = orderServedColumns(table)
  const unsorted: string[] = []
  for (const { name: column } of table.columns) {
    const clientName = clientNames.get(column)
    const spec = clientName === undefined ? undefined : columns[clientName]
    if (clientName === undefined || spec === undefined || served.has(column) || !columnSortable(spec)) continue
    columns[clientName] = typeof spec === 'string' ? { type: spec, sortable: false } : { ...spec, sortable: false }
    unsorted.push(column)
  }
  if (unsorted.length === 0) return
  const message =
    `${table.name}: sortable: false on ${unsorted.join(', ')}, since no index starts with ` +
    `${unsorted.length === 1 ? 'it' : 'them'} (sortableIndexedOnly)`
  notices.push({ kind: 'unindexed-sort', table: table.name, message })
}
