import type { SchemaColumn, SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import type { BelongsToRelation, RelationKey, RelationMap } from '../relation-map.ts'
import { checkCompositeKey } from './check-composite-key.ts'
import { relationKind } from '../map/relation-kinds.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** Tables and columns of a snapshot by name, for checks that ask about many of them. */
export interface SchemaLookup {
  table(name: string): SchemaTable | undefined
  column(table: string, column: string): SchemaColumn | undefined
}

/** A {@link SchemaLookup} over `tables`. */
export function schemaLookup(tables: readonly SchemaTable[]): SchemaLookup {
  const byName = new Map(
    tables.map((table) => [
      table.name,
      { table, columns: new Map(table.columns.map((column) => [column.name, column])) },
    ]),
  )
  return {
    table: (name) => byName.get(name)?.table,
    column: (table, column) => byName.get(table)?.columns.get(column),
  }
}

/** The columns of a relation key, one or several. */
export const keyList = (key: RelationKey): readonly string[] => (typeof key === 'string' ? [key] : key)

/** Whether two column lists name the same columns in the same order. */
export const sameColumns = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column, index) => right[index] === column)

function checkRequired(
  map: RelationMap,
  table: string,
  relation: BelongsToRelation,
  path: string,
  schema: SchemaLookup,
): RelationMapProblem[] {
  const foreignKeys = keyList(relation.foreignKey)
  const ownerKeys =
    relation.ownerKey === undefined ? primaryKeyColumns(map, relation.table) : keyList(relation.ownerKey)
  const columns = foreignKeys.map((column) => schema.column(table, column))
  if (columns.includes(undefined) || ownerKeys.some((key) => schema.column(relation.table, key) === undefined))
    return []
  const where = `${table}.${foreignKeys.join(', ')}`
  const ownerKey = ownerKeys.join(', ')
  if (columns.some((column) => column?.nullable === true)) {
    return [
      relationMapProblem(
        'required_foreign_key_nullable',
        `${path}.required`,
        `${where} may hold NULL, so some rows have no ${relation.table} row: orders through it would drop them`,
      ),
    ]
  }
  const constraint = schema
    .table(table)
    ?.foreignKeys.find(
      (foreignKey) =>
        sameColumns(foreignKey.columns, foreignKeys) &&
        foreignKey.referencedTable === relation.table &&
        sameColumns(foreignKey.referencedColumns, ownerKeys),
    )
  if (constraint?.enforced === true) return []
  const state =
    constraint === undefined
      ? 'no foreign-key constraint'
      : `a foreign key${constraint.name === undefined ? '' : ` (${constraint.name})`} the database does not enforce`
  return [
    relationMapProblem(
      'required_foreign_key_not_enforced',
      `${path}.required`,
      `${where} → ${relation.table}.${ownerKey} has ${state}, so a row may point at no ${relation.table} row: ` +
        `orders through it would drop it`,
    ),
  ]
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
      problems.push(
        relationMapProblem('missing_table', `${path}.pivotTable`, `the database has no table '${relation.pivotTable}'`),
      )
      continue
    }
    // The keys the relation names (and the morph pairs its `name` implies); keys left to their default are
    // the primary keys the `primaryKey` check covers.
    for (const key of relationKind(relation.type).keyColumns(table, relation)) {
      if (
        key.column === undefined ||
        schema.table(key.table) === undefined ||
        schema.column(key.table, key.column) !== undefined
      )
        continue
      problems.push(
        relationMapProblem('missing_key', `${path}.${key.option}`, `${key.table} has no column '${key.column}'`),
      )
    }
    if (relation.type === 'belongsTo' && relation.required === true)
      problems.push(...checkRequired(map, table, relation, path, schema))
    problems.push(...checkCompositeKey(map, table, relation, path, schema))
  }
  return problems
}
