import type { RelationMap } from '../relation-map.ts'
import type { Condition, QueryPlan } from '../validate/query-plan.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import { innerPath } from './inner-path.ts'

/**
 * The to-one hop paths from the base table of the relation filters in the client's wheres and `relationsExists`
 * of `query` that are inner joins by declaration (`required` belongsTo hops to tables without a guard), each as
 * far as it goes, where a column test of the last hop's table follows: `post.author.score < ?` gives `post` →
 * `author`; `author.posts.views > ?` gives none. Bare existence gives none (such hops hold for every row and are
 * left out already). A composite key is not joined.
 */
export function filterHops(map: RelationMap, query: Pick<QueryPlan, 'wheres' | 'exists'>): DirectRelation[][] {
  const paths = new Map<string, DirectRelation[]>()
  const visit = (condition: Condition): void => {
    const via = joinedPath(map, condition)
    if (via !== undefined) paths.set(via.map((relation) => `${relation.parentTable}.${relation.name}`).join('/'), via)
  }
  for (const { condition } of query.wheres) visit(condition)
  for (const condition of query.exists) visit(condition)
  return [...paths.values()]
}

/**
 * Whether every one of the client's wheres is a column test of the base table or a filter through hops
 * {@link filterHops} joins: joined, an `or` of them is an `or` of column tests of the joined rows, one pass.
 */
export function everyWhereJoinable(map: RelationMap, query: Pick<QueryPlan, 'wheres'>): boolean {
  return query.wheres.every(({ condition }) => condition.kind === 'test' || joinedPath(map, condition) !== undefined)
}

/** The to-one hops a join reads `condition` through, as far as they go, when a column test follows; else none. */
function joinedPath(map: RelationMap, condition: Condition): DirectRelation[] | undefined {
  const via: DirectRelation[] = []
  let at: Condition | null = condition
  while (
    at?.kind === 'exists' &&
    at.inner !== null &&
    at.relation.composite === undefined &&
    innerPath(map, [at.relation])
  ) {
    via.push(at.relation)
    at = at.inner
  }
  // A hop whose rows must meet a relation filter of their own only passes a key on: listed, it is left out
  // (`listedThrough`), which a join would undo.
  return via.length > 0 && at?.kind === 'test' ? via : undefined
}
