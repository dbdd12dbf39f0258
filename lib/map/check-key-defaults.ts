import type { RelationMap } from '../relation-map.ts'
import { primaryKeyColumns } from './primary-key-columns.ts'
import { relationMapError } from './relation-map-error.ts'

/**
 * Rejects a relation whose key would default to a composite primary key (`hasMany` without `localKey` on a
 * table keyed by two columns): relations link through one column, so the map must name it.
 *
 * @throws {Error} naming the relation key to set.
 */
export function checkKeyDefaults(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      const path = `${table}.relations.${name}`
      const check = (key: string | undefined, keyTable: string, option: string): void => {
        const columns = primaryKeyColumns(map, keyTable)
        if (key !== undefined || columns.length === 1) return
        throw relationMapError(`${path}.${option}`, `missing; it would default to the composite primary key of ${keyTable} (${columns.join(', ')}), and a relation links through one column: name it`)
      }
      switch (relation.type) {
        case 'belongsTo':
          check(relation.ownerKey, relation.table, 'ownerKey')
          break
        case 'hasOne':
        case 'hasMany':
        case 'morphOne':
        case 'morphMany':
          check(relation.localKey, table, 'localKey')
          break
        case 'belongsToMany':
          check(relation.parentKey, table, 'parentKey')
          check(relation.relatedKey, relation.table, 'relatedKey')
          break
        case 'morphTo':
          for (const [typeValue, target] of Object.entries(relation.types)) {
            const columns = primaryKeyColumns(map, target)
            if (columns.length > 1) throw relationMapError(`${path}.types.${typeValue}`, `table '${target}' has a composite primary key (${columns.join(', ')}); a morphTo target is found by one key column`)
          }
      }
    }
  }
}
