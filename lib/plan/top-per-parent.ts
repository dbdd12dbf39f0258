import type { DialectPlanner } from '../dialect/dialect-planner.ts'
import type { TopPerParentForm } from '../dialect/top-per-parent.ts'
import { loadsOf, unhandled } from '../map/relation-kinds.ts'
import type { DirectRelation, RelationTop } from '../validate/resolved-relation.ts'

/** How eager loading reads a relation's top N per parent: how many rows in which order, and the SQL form. */
export interface TopPerParentPlan extends RelationTop {
  readonly form: TopPerParentForm
}

/** A to-one relation that several related rows may match loads the one with the lowest key. */
const FIRST_BY_KEY: RelationTop = { limit: 1, orders: [] }

/**
 * How many related rows each parent keeps when `relation` is eager-loaded, as its kind loads them
 * (`RELATION_KINDS`): a to-many relation its declared `limit` in its declared order, a hasOne or morphOne the one
 * with the lowest key, or `undefined`: every match (a belongsTo references one row). The form is the dialect's
 * (`DialectPlanner.topPerParent`), but `window` for a composite key without a pivot: the lateral form reads one
 * key column back from the parent table. The SQL of each form is written in `lib/dialect/top-per-parent.ts`.
 */
export function topPerParentOf(
  relation: DirectRelation,
  planner: Pick<DialectPlanner, 'topPerParent'>,
): TopPerParentPlan | undefined {
  const top = topOf(relation)
  if (top === undefined) return undefined
  const composite = relation.pivot === undefined && relation.composite !== undefined
  return { ...top, form: composite ? 'window' : planner.topPerParent }
}

function topOf(relation: DirectRelation): RelationTop | undefined {
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
