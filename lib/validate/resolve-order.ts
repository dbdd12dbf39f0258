import { QueryParamsError } from '../errors/query-params-error.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import type { RelationMap } from '../relation-map.ts'
import { columnFacts } from './column-facts.ts'
import { checkRelationDepth, unknownRelation, relationsOf } from './relations-of.ts'
import { checkSortable } from './column-capabilities.ts'
import { resolveColumn } from './resolve-column.ts'
import type { PlannedAggregate } from './query-plan.ts'
import type { DirectRelation } from './resolved-relation.ts'
import type { PlannedSearch } from './planned-search.ts'

/**
 * An order by a column of the base table (`via` empty) or of a to-one related table, or by an aggregate of the base
 * row.
 */
export interface PlannedOrder {
  /** An order by this aggregate of the base row (`postsCount`); `via` is then empty and `column` is `''`. */
  aggregate?: PlannedAggregate
  via: DirectRelation[]
  column: string
  direction: 'asc' | 'desc'
  /** Whether the ordered value can be NULL: a nullable column, or a related row that may be missing. */
  nullable: boolean
  /** Whether no two rows can share the value (a NOT NULL unique column of the base table), so the order is total. */
  total: boolean
  /**
   * An order by the relevance of this `fulltext` search (`orders[i][column]=relevance`); `via` is then empty and
   * `column` is `''`.
   */
  relevance?: PlannedSearch
}

/**
 * Resolves `orders[i][column]`: an allow-listed column, `table.column` of the base table, or a path
 * through to-one relations (`team.name`, `team.owner.email`). A to-many or `morphTo` hop is `invalid_order`; a
 * column declared `sortable: false` is `not_sortable`, on its own table and through relations alike.
 */
export function resolveOrder(
  map: RelationMap,
  table: string,
  name: string,
  direction: 'asc' | 'desc',
  param: string,
  maxDepth = APPLY_DEFAULTS.maxRelationDepth,
): PlannedOrder {
  const segments = name.split('.')
  if (segments.length === 2 && segments[0] === table && !relationsOf(map, table).has(table)) segments.shift()
  const column = segments.pop() ?? ''
  checkRelationDepth(segments.length, maxDepth, param)
  const via: DirectRelation[] = []
  let current = table
  for (const segment of segments) {
    const relations = relationsOf(map, current)
    const relation = relations.get(segment)
    if (relation === undefined) {
      throw unknownRelation(param, segment, current, relations.keys())
    }
    if (relation.kind !== 'direct' || relation.many) {
      throw new QueryParamsError(
        `Parameter '${param}': cannot order by '${segment}', a ${relation.type} relation: ordering needs one ` +
          `related row per row (belongsTo, hasOne or morphOne).`,
        { code: 'invalid_order', param },
      )
    }
    via.push(relation)
    current = relation.table
  }
  const { name: clientName, column: resolved } = resolveColumn(map, current, column, param)
  checkSortable(map, current, clientName, param)
  const facts = columnFacts(map, current, resolved)
  const alwaysRelated = via.every((relation) => relation.required === true && map[relation.table]?.guard === undefined)
  return {
    via,
    column: resolved,
    direction,
    nullable: facts.nullable || !alwaysRelated,
    total: via.length === 0 && facts.unique && !facts.nullable,
  }
}
