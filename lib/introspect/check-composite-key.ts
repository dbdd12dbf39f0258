import { primaryKeyColumns } from '../map/columns.ts'
import type { RelationDefinition, RelationMap } from '../relation-map.ts'
import type { SchemaLookup } from './check-schema-keys.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** The two sides of a composite key: the referencing table's columns and the referenced table's, paired in order. */
interface CompositeSides {
  referencing: { table: string; columns: readonly string[]; option: string }
  referenced: { table: string; columns: readonly string[]; option: string }
}

function sidesOf(map: RelationMap, table: string, relation: RelationDefinition): CompositeSides | undefined {
  if (relation.type === 'belongsTo') {
    if (typeof relation.foreignKey === 'string') return undefined
    return {
      referencing: { table, columns: relation.foreignKey, option: 'foreignKey' },
      referenced: {
        table: relation.table,
        columns: relation.ownerKey === undefined ? primaryKeyColumns(map, relation.table) : [relation.ownerKey].flat(),
        option: 'ownerKey',
      },
    }
  }
  if (relation.type === 'hasOne' || relation.type === 'hasMany') {
    if (typeof relation.foreignKey === 'string') return undefined
    return {
      referencing: { table: relation.table, columns: relation.foreignKey, option: 'foreignKey' },
      referenced: {
        table,
        columns: relation.localKey === undefined ? primaryKeyColumns(map, table) : [relation.localKey].flat(),
        option: 'localKey',
      },
    }
  }
  return undefined
}

const same = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column, index) => right[index] === column)

/**
 * The problems of a composite relation key (`foreignKey: ['rental_id', 'rental_date']`) against the database, once
 * its columns are known to exist: paired columns of different types (`relation_key_type_mismatch`), and a key that
 * neither a foreign key of the referencing table nor the referenced table's primary key or a unique constraint
 * backs (`relation_key_unbacked`). Nothing for a one-column key or a relation other than belongsTo/hasOne/hasMany.
 */
export function checkCompositeKey(
  map: RelationMap,
  table: string,
  relation: RelationDefinition,
  path: string,
  schema: SchemaLookup,
): RelationMapProblem[] {
  const sides = sidesOf(map, table, relation)
  if (sides === undefined) return []
  const { referencing, referenced } = sides
  const from = referencing.columns.map((column) => schema.column(referencing.table, column))
  const to = referenced.columns.map((column) => schema.column(referenced.table, column))
  if (from.includes(undefined) || to.includes(undefined) || from.length !== to.length) return []
  const problems: RelationMapProblem[] = []
  from.forEach((column, index) => {
    const other = to[index]
    if (column?.type === undefined || other?.type === undefined || column.type === other.type) return
    problems.push(
      relationMapProblem(
        'relation_key_type_mismatch',
        `${path}.${referencing.option}[${index}]`,
        `${referencing.table}.${column.name} is ${column.type} (${column.dataType}) but the column it is paired with, ` +
          `${referenced.table}.${other.name}, is ${other.type} (${other.dataType})`,
      ),
    )
  })
  const referencingTable = schema.table(referencing.table)
  const referencedTable = schema.table(referenced.table)
  const byForeignKey =
    referencingTable?.foreignKeys.some(
      (key) =>
        key.referencedTable === referenced.table &&
        same(key.columns, referencing.columns) &&
        same(key.referencedColumns, referenced.columns),
    ) === true
  // Unique when the primary key or a unique constraint lies within the referenced columns.
  const unique =
    referencedTable !== undefined &&
    [referencedTable.primaryKey, ...referencedTable.uniques].some(
      (columns) => columns.length > 0 && columns.every((column) => referenced.columns.includes(column)),
    )
  if (!byForeignKey && !unique)
    problems.push(
      relationMapProblem(
        'relation_key_unbacked',
        `${path}.${referencing.option}`,
        `no foreign key of ${referencing.table} (${referencing.columns.join(', ')}) references ` +
          `${referenced.table} (${referenced.columns.join(', ')}), and those columns are neither its primary key nor ` +
          `unique: one row may match several`,
      ),
    )
  return problems
}
