import { primaryKeyColumns, databaseColumn } from '../map/columns.ts'
import { isToMany, relationKind, unhandled } from '../map/relation-kinds.ts'
import type { RelationDefinition, RelationKey, RelationMap, RelationTopN } from '../relation-map.ts'
import { columnFacts } from './column-facts.ts'
import type { CompositeKey, DirectRelation, RelationTop, ResolvedRelation } from './resolved-relation.ts'

/**
 * The single-column primary key of a table of the map (default `id`), as a relation key defaults to it.
 * The map check rejects relations whose key would default to a composite key, so this never sees one.
 */
export function primaryKeyOf(map: RelationMap, table: string): string {
  const columns = primaryKeyColumns(map, table)
  if (columns.length !== 1)
    throw new Error(`knex-query-params: ${table}.primaryKey: a composite key cannot be a relation's default key`)
  return columns[0] as string
}

/**
 * Fills in the defaults of one relation definition: which column of the parent and of the related
 * table (or pivot) link them. Throws a configuration `Error` (not a client error) when the map
 * names a table it does not define.
 */
export function resolveRelation(
  map: RelationMap,
  parentTable: string,
  name: string,
  def: RelationDefinition,
): ResolvedRelation {
  const where = `${parentTable}.relations.${name}`
  const requireTable = (table: string): string => {
    if (map[table] === undefined)
      throw new Error(`knex-query-params: ${where}: table '${table}' is not in the relation map`)
    return table
  }
  const type = def.type
  const many = isToMany(type)
  const link = relationKind(type).link(def)
  switch (link.kind) {
    case 'direct': {
      const table = requireTable(link.table)
      const composite = compositeKey(map, parentTable, table, link.parentKey, link.relatedKey)
      return {
        kind: 'direct',
        name,
        type: type as DirectRelation['type'],
        many,
        parentTable,
        table,
        parentKey: composite?.parentKeys[0] ?? keyColumn(link.parentKey) ?? primaryKeyOf(map, parentTable),
        relatedKey: composite?.relatedKeys[0] ?? keyColumn(link.relatedKey) ?? primaryKeyOf(map, table),
        ...(composite === undefined ? {} : { composite }),
        ...(link.pivot === undefined ? {} : { pivot: link.pivot }),
        ...(link.morph === undefined ? {} : { morph: link.morph }),
        ...(def.type === 'belongsTo' && def.required === true ? { required: true } : {}),
        ...('limit' in def ? topOf(map, table, def) : {}),
      }
    }
    case 'morphTo':
      return {
        kind: 'morphTo',
        name,
        type: 'morphTo',
        many: false,
        parentTable,
        typeColumn: link.typeColumn,
        idColumn: link.idColumn,
        targets: Object.entries(link.types).map(([typeValue, table]) => ({
          typeValue,
          table: requireTable(table),
          key: primaryKeyOf(map, table),
        })),
      }
    default:
      return unhandled(link)
  }
}

/** The column of a one-column key (`undefined` when left out or composite). */
const keyColumn = (key: RelationKey | undefined): string | undefined => (typeof key === 'string' ? key : undefined)

/**
 * The two sides of a composite key, a side left out being its table's primary key (the map check made the lengths
 * agree); `undefined` when the key is one column.
 */
function compositeKey(
  map: RelationMap,
  parentTable: string,
  table: string,
  parentKey: RelationKey | undefined,
  relatedKey: RelationKey | undefined,
): CompositeKey | undefined {
  if (typeof parentKey !== 'object' && typeof relatedKey !== 'object') return undefined
  const parentKeys = typeof parentKey === 'object' ? [...parentKey] : primaryKeyColumns(map, parentTable)
  const relatedKeys = typeof relatedKey === 'object' ? [...relatedKey] : primaryKeyColumns(map, table)
  if (parentKeys.length !== relatedKeys.length || parentKeys.length < 2)
    throw new Error(
      `knex-query-params: ${parentTable}: a composite relation key pairs ${parentKeys.join(', ')} with ` +
        `${relatedKeys.join(', ')}; name as many columns on each side`,
    )
  return { parentKeys, relatedKeys }
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
