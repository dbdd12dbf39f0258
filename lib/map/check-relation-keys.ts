import type { RelationDefinition, RelationMap } from '../relation-map.ts'
import { databaseColumn, primaryKeyColumns } from './columns.ts'
import { relationMapError } from './relation-map-error.ts'

/**
 * Checks the keys of every relation against the tables they live in, once every table is known valid:
 * a key names a database column, so a client name of an aliased column there is a mistake; and a key left
 * out must not default to a composite primary key (`hasMany` without `localKey` on a table keyed by two
 * columns), since a relation links through one column.
 *
 * @throws {Error} naming the relation key to fix.
 */
export function checkRelationKeys(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      const path = `${table}.relations.${name}`
      for (const [option, key, keyTable] of keysOf(table, relation)) {
        if (key !== undefined) checkNamesDatabaseColumn(map, `${path}.${option}`, key, keyTable)
        else checkDefault(map, `${path}.${option}`, keyTable)
      }
      if (relation.type !== 'morphTo') continue
      for (const [typeValue, target] of Object.entries(relation.types)) {
        const columns = primaryKeyColumns(map, target)
        if (columns.length > 1) throw relationMapError(`${path}.types.${typeValue}`, `table '${target}' has a composite primary key (${columns.join(', ')}); a morphTo target is found by one key column`)
      }
    }
  }
}

type KeyUse = [option: string, key: string | undefined, table: string]

/** Each key option of a relation, its value (undefined when it defaults to a primary key) and the table whose column it names. */
function keysOf(table: string, relation: RelationDefinition): KeyUse[] {
  switch (relation.type) {
    case 'belongsTo':
      return [['foreignKey', relation.foreignKey, table], ['ownerKey', relation.ownerKey, relation.table]]
    case 'hasOne':
    case 'hasMany':
      return [['foreignKey', relation.foreignKey, relation.table], ['localKey', relation.localKey, table]]
    case 'belongsToMany':
      return [
        ['parentKey', relation.parentKey, table],
        ['relatedKey', relation.relatedKey, relation.table],
        ['foreignPivotKey', relation.foreignPivotKey, relation.pivotTable],
        ['relatedPivotKey', relation.relatedPivotKey, relation.pivotTable],
      ]
    case 'morphOne':
    case 'morphMany':
      return [['name', `${relation.name}_id`, relation.table], ['name', `${relation.name}_type`, relation.table], ['localKey', relation.localKey, table]]
    case 'morphTo':
      return [['name', `${relation.name}_id`, table], ['name', `${relation.name}_type`, table]]
  }
}

function checkNamesDatabaseColumn(map: RelationMap, path: string, key: string, table: string): void {
  const column = databaseColumn(map, table, key)
  if (column !== key) throw relationMapError(path, `'${key}' is the client name of ${table}.${column}; relation keys name database columns, here '${column}'`)
}

function checkDefault(map: RelationMap, path: string, table: string): void {
  const columns = primaryKeyColumns(map, table)
  if (columns.length === 1) return
  throw relationMapError(path, `missing; it would default to the composite primary key of ${table} (${columns.join(', ')}), and a relation links through one column: name it`)
}
