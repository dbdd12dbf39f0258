import { loadsOf, unhandled } from '../map/relation-kinds.ts'
import type { DirectRelation, RelationTop } from '../validate/resolved-relation.ts'

/** A to-one relation that several related rows may match loads the one with the lowest key. */
const FIRST_BY_KEY: RelationTop = { limit: 1, orders: [] }

/**
 * How many related rows each parent keeps when `relation` is eager-loaded, as its kind loads them
 * (`RELATION_KINDS`): a to-many relation its declared `limit` in its declared order, a hasOne or morphOne the one
 * with the lowest key, or `undefined`: every match (a belongsTo references one row). A top N is written per
 * dialect (`Dialect.topPerParent`, `lib/dialect/top-per-parent.ts`).
 */
export function topPerParentOf(relation: DirectRelation): RelationTop | undefined {
  const loads = loadsOf(relation.type)
  switch (loads) {
    case 'all':
      return relation.top
    case 'first':
      return FIRST_BY_KEY
    case 'one':
      return undefined
    default:
      return unhandled(loads)
  }
}
