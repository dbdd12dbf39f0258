import { primaryKeyColumns, databaseColumn } from '../map/columns.ts'
import type { RelationDefinition, RelationMap, RelationTopN } from '../relation-map.ts'
import { columnFacts } from './column-facts.ts'
import type { RelationTop, ResolvedRelation } from './resolved-relation.ts'

/**
 * The single-column primary key of a table of the map (default `id`), as a relation key defaults to it.
 * The map check rejects relations whose key would default to a composite key, so this never sees one.
 */
export function primaryKeyOf(map: RelationMap, table: string): string {
  const columns = primaryKeyColumns(map, table)
  if (columns.length !== 1) throw new Error(`knex-query-params: ${table}.primaryKey: a composite key cannot be a relation's default key`)
  return columns[0] as string
}

/**
 * Fills in the defaults of one relation definition: which column of the parent and of the related
 * table (or pivot) link them. Throws a configuration `Error` (not a client error) when the map
 * names a table it does not define.
 */
export function resolveRelation(map: RelationMap, parentTable: string, name: string, def: RelationDefinition): ResolvedRelation {
  const where = `${parentTable}.relations.${name}`
  const requireTable = (table: string): string => {
    if (map[table] === undefined) throw new Error(`knex-query-params: ${where}: table '${table}' is not in the relation map`)
    return table
  }
  const parentPk = (): string => primaryKeyOf(map, parentTable)
  switch (def.type) {
    case 'belongsTo':
      return {
        kind: 'direct', name, type: def.type, many: false, parentTable, table: requireTable(def.table),
        parentKey: def.foreignKey, relatedKey: def.ownerKey ?? primaryKeyOf(map, def.table),
        ...(def.required === true ? { required: true } : {}),
      }
    case 'hasOne':
    case 'hasMany':
      return {
        kind: 'direct', name, type: def.type, many: def.type === 'hasMany', parentTable, table: requireTable(def.table),
        parentKey: def.localKey ?? parentPk(), relatedKey: def.foreignKey, ...topOf(map, def.table, def),
      }
    case 'belongsToMany':
      return {
        kind: 'direct', name, type: def.type, many: true, parentTable, table: requireTable(def.table),
        parentKey: def.parentKey ?? parentPk(), relatedKey: def.relatedKey ?? primaryKeyOf(map, def.table),
        pivot: { table: def.pivotTable, parentColumn: def.foreignPivotKey, relatedColumn: def.relatedPivotKey },
        ...topOf(map, def.table, def),
      }
    case 'morphOne':
    case 'morphMany':
      return {
        kind: 'direct', name, type: def.type, many: def.type === 'morphMany', parentTable, table: requireTable(def.table),
        parentKey: def.localKey ?? parentPk(), relatedKey: `${def.name}_id`,
        morph: { column: `${def.name}_type`, value: def.morphType }, ...topOf(map, def.table, def),
      }
    case 'morphTo':
      return {
        kind: 'morphTo', name, type: def.type, many: false, parentTable,
        typeColumn: `${def.name}_type`, idColumn: `${def.name}_id`,
        targets: Object.entries(def.types).map(([typeValue, table]) => ({
          typeValue, table: requireTable(table), key: primaryKeyOf(map, table),
        })),
      }
  }
}

/** `{ top }` for a relation that declares `limit` (its orders on database columns), else nothing. */
function topOf(map: RelationMap, table: string, def: RelationTopN): { top?: RelationTop } {
  if (def.limit === undefined) return {}
  const orders = (def.orders ?? []).map(({ column, direction }) => {
    const database = databaseColumn(map, table, column)
    return { column: database, direction, nullable: columnFacts(map, table, database).nullable }
  })
  return { top: { limit: def.limit, orders } }
}
