import { databaseColumn } from '../map/database-column.ts'
import type { RelationMap } from '../relation-map.ts'
import { orderServedColumns } from './order-served-columns.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'
import type { SchemaTable } from './schema-snapshot.ts'

/**
 * A `sortable_without_index` warning for each declared column of `name` that is sortable (not declared
 * `sortable: false`), exists in the database, and leads no index nor the primary key of `table`.
 */
export function checkSortIndexes(map: RelationMap, name: string, table: SchemaTable): RelationMapProblem[] {
  const definition = map[name]
  if (definition === undefined) return []
  const served = orderServedColumns(table)
  const problems: RelationMapProblem[] = []
  for (const [clientName, spec] of Object.entries(definition.columns)) {
    if (typeof spec !== 'string' && spec.sortable === false) continue
    const column = databaseColumn(map, name, clientName)
    if (served.has(column) || !table.columns.some((each) => each.name === column)) continue
    const message = `${name}.${column} is sortable, but no index of ${name} starts with it: an order on it sorts every matching row; add an index or declare sortable: false`
    problems.push(relationMapProblem('sortable_without_index', `${name}.columns.${clientName}`, message))
  }
  return problems
}
