import type { RelationMap } from '../relation-map.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'

/**
 * Whether every hop of `via` joins as an inner join: a `required` belongsTo to a table without a guard, so the
 * related row always exists and is always visible.
 */
export function innerPath(map: RelationMap, via: readonly DirectRelation[]): boolean {
  return via.every(
    (relation) =>
      relation.type === 'belongsTo' && relation.required === true && map[relation.table]?.guard === undefined,
  )
}
