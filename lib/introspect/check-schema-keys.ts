import type { SchemaColumn, SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import type { BelongsToRelation, RelationDefinition, RelationMap } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** Tables and columns of a snapshot by name, for checks that ask about many of them. */
export interface SchemaLookup {
  table(name: string): SchemaTable | undefined
  column(table: string, column: string): SchemaColumn | undefined
}

/** A {@link SchemaLookup} over `tables`. */
export function schemaLookup(tables: readonly SchemaTable[]): SchemaLookup {
  const byName = new Map(tables.map((table) => [table.name, { table, columns: new Map(table.columns.map((column) => [column.name, column])) }]))
  return {
    table: (name) => byName.get(name)?.table,
    column: (table, column) => byName.get(table)?.columns.get(column),
  }
}

/** A key column a relation names: where it must be, and the map path naming it. */
interface KeyUse {
  table: string
  column: string
  path: string
}

/**
 * The key columns a relation names explicitly (and the morph pairs its `name` implies). Keys left to their
 * default are the primary keys the `primaryKey` check covers.
 */
function keyUses(table: string, relation: RelationDefinition, path: string): KeyUse[] {
  const uses: Array<KeyUse | undefined> = []
  const use = (on: string, column: string | undefined, key: string): KeyUse | undefined =>
    column === undefined ? undefined : { table: on, column, path: `${path}.${key}` }
  switch (relation.type) {
    case 'belongsTo':
      uses.push(use(table, relation.foreignKey, 'foreignKey'), use(relation.table, relation.ownerKey, 'ownerKey'))
      break
    case 'hasOne':
    case 'hasMany':
      uses.push(use(relation.table, relation.foreignKey, 'foreignKey'), use(table, relation.localKey, 'localKey'))
      break
    case 'belongsToMany':
      uses.push(
        use(relation.pivotTable, relation.foreignPivotKey, 'foreignPivotKey'),
        use(relation.pivotTable, relation.relatedPivotKey, 'relatedPivotKey'),
        use(table, relation.parentKey, 'parentKey'),
        use(relation.table, relation.relatedKey, 'relatedKey'),
      )
      break
    case 'morphOne':
    case 'morphMany':
      uses.push(use(relation.table, `${relation.name}_type`, 'name'), use(relation.table, `${relation.name}_id`, 'name'), use(table, relation.localKey, 'localKey'))
      break
    case 'morphTo':
      uses.push(use(table, `${relation.name}_type`, 'name'), use(table, `${relation.name}_id`, 'name'))
  }
  return uses.filter((key) => key !== undefined)
}

function checkRequired(map: RelationMap, table: string, relation: BelongsToRelation, path: string, schema: SchemaLookup): RelationMapProblem[] {
  const column = schema.column(table, relation.foreignKey)
  const ownerKey = relation.ownerKey ?? primaryKeyColumns(map, relation.table)[0] ?? 'id'
  if (column === undefined || schema.column(relation.table, ownerKey) === undefined) return []
  const where = `${table}.${relation.foreignKey}`
  if (column.nullable) {
    return [relationMapProblem('required_foreign_key_nullable', `${path}.required`, `${where} may hold NULL, so some rows have no ${relation.table} row: orders through it would drop them`)]
  }
  const constraint = schema.table(table)?.foreignKeys.find(
    (foreignKey) => foreignKey.columns.length === 1 && foreignKey.columns[0] === relation.foreignKey && foreignKey.referencedTable === relation.table && foreignKey.referencedColumns[0] === ownerKey,
  )
  if (constraint?.enforced === true) return []
  const state = constraint === undefined ? 'no foreign-key constraint' : `a foreign key${constraint.name === undefined ? '' : ` (${constraint.name})`} the database does not enforce`
  return [relationMapProblem('required_foreign_key_not_enforced', `${path}.required`, `${where} → ${relation.table}.${ownerKey} has ${state}, so a row may point at no ${relation.table} row: orders through it would drop it`)]
}

/**
 * The problems of one table's relations against the database: a missing pivot table, key columns that do not
 * exist, and `required` belongsTo relations the database does not guarantee.
 */
export function checkRelationKeys(map: RelationMap, table: string, schema: SchemaLookup): RelationMapProblem[] {
  const problems: RelationMapProblem[] = []
  for (const [name, relation] of Object.entries(map[table]?.relations ?? {})) {
    const path = `${table}.relations.${name}`
    if (relation.type === 'belongsToMany' && schema.table(relation.pivotTable) === undefined) {
      problems.push(relationMapProblem('missing_table', `${path}.pivotTable`, `the database has no table '${relation.pivotTable}'`))
      continue
    }
    for (const key of keyUses(table, relation, path)) {
      if (schema.table(key.table) === undefined || schema.column(key.table, key.column) !== undefined) continue
      problems.push(relationMapProblem('missing_key', key.path, `${key.table} has no column '${key.column}'`))
    }
    if (relation.type === 'belongsTo' && relation.required === true) problems.push(...checkRequired(map, table, relation, path, schema))
  }
  return problems
}
