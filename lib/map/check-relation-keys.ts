import type { RelationDefinition, RelationMap } from '../relation-map.ts'
import { databaseColumn, primaryKeyColumns } from './columns.ts'
import { relationMapError } from './relation-map-error.ts'
import { relationKind } from './relation-kinds.ts'

/**
 * Checks the keys of every relation against the tables they live in, once every table is known valid:
 * a key names a database column, so a client name of an aliased column there is a mistake; and a key left
 * out must not default to a composite primary key (`hasMany` without `localKey` on a table keyed by two
 * columns), since a one-column key links through one column; a composite `foreignKey` left without its other
 * side defaults to a primary key of as many columns.
 *
 * @throws {Error} naming the relation key to fix.
 */
export function checkRelationKeys(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      const path = `${table}.relations.${name}`
      const width = keyWidth(relation)
      for (const { option, column, table: keyTable } of relationKind(relation.type).keyColumns(table, relation)) {
        if (column !== undefined) checkNamesDatabaseColumn(map, `${path}.${option}`, column, keyTable)
        else checkDefault(map, `${path}.${option}`, keyTable, width)
      }
      if (relation.type !== 'morphTo') continue
      for (const [typeValue, target] of Object.entries(relation.types)) {
        const columns = primaryKeyColumns(map, target)
        if (columns.length > 1)
          throw relationMapError(
            `${path}.types.${typeValue}`,
            `table '${target}' has a composite primary key (${columns.join(', ')}); a morphTo target is found by ` +
              `one key column`,
          )
      }
    }
  }
}

function checkNamesDatabaseColumn(map: RelationMap, path: string, key: string, table: string): void {
  const column = databaseColumn(map, table, key)
  if (column !== key)
    throw relationMapError(
      path,
      `'${key}' is the client name of ${table}.${column}; relation keys name database columns, here '${column}'`,
    )
}

/** How many columns a relation's key spans: 1, or the length of its composite `foreignKey`. */
function keyWidth(relation: RelationDefinition): number {
  if (relation.type !== 'belongsTo' && relation.type !== 'hasOne' && relation.type !== 'hasMany') return 1
  return typeof relation.foreignKey === 'string' ? 1 : relation.foreignKey.length
}

function checkDefault(map: RelationMap, path: string, table: string, width: number): void {
  const columns = primaryKeyColumns(map, table)
  if (columns.length === width) return
  if (width > 1)
    throw relationMapError(
      path,
      `missing; it would default to the primary key of ${table} (${columns.join(', ')}), but foreignKey names ` +
        `${width} columns: name the ${width} columns it references, in order`,
    )
  throw relationMapError(
    path,
    `missing; it would default to the composite primary key of ${table} (${columns.join(', ')}), and a relation ` +
      `links through one column: name it`,
  )
}
