import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RelationMap } from '../relation-map.ts'
import { aggregatesOf, findAggregate } from './aggregates-of.ts'
import type { PlannedAggregate, WithNode } from './query-plan.ts'
import { relatedTables, relationsOf, unknownRelation } from './relations-of.ts'

/** Caps on eager loading. */
export interface WithLimits {
  maxWith: number
  maxWithDepth: number
}

/**
 * Builds the eager-loading tree of `with` paths such as `posts.comments`, `*` (every relation of the
 * table) or `posts.*`. Paths sharing a prefix share nodes. After a `morphTo`, a segment applies to
 * every target table that has it. A last segment may name an aggregate of its table (`postsCount`,
 * `posts.commentsCount`, a declared one): those of the base table go to `aggregates`, the others onto the
 * node whose rows get them. Aggregates count towards `maxWith` and `maxWithDepth` as relations do. Unknown
 * relations are `unknown_relation` (listing the relations and aggregates allowed); caps are `limit_exceeded`.
 */
export function buildWithTree(
  map: RelationMap,
  table: string,
  paths: readonly string[],
  param: (index?: number) => string,
  limits: WithLimits,
  aggregates: PlannedAggregate[] = [],
): WithNode[] {
  if (paths.length > limits.maxWith) {
    throw new QueryParamsError(`Parameter '${param()}' lists more than ${limits.maxWith} relations.`, {
      code: 'limit_exceeded',
      param: param(),
    })
  }
  const roots: WithNode[] = []
  paths.forEach((path, index) => {
    const segments = path.split('.')
    if (segments.length > limits.maxWithDepth) {
      throw new QueryParamsError(`Parameter '${param(index)}' nests deeper than ${limits.maxWithDepth} relations.`, {
        code: 'limit_exceeded',
        param: param(index),
      })
    }
    addPath(map, table, roots, segments, 0, () => param(index), aggregates)
  })
  return roots
}

/** Adds `segments` from position `at` under `nodes` (relations of `table`); `param` names the path in errors. */
function addPath(
  map: RelationMap,
  table: string,
  nodes: WithNode[],
  segments: readonly string[],
  at: number,
  param: () => string,
  aggregates: PlannedAggregate[],
): void {
  const head = segments[at] ?? ''
  const relations = relationsOf(map, table)
  if (head !== '*' && !relations.has(head)) {
    const aggregate = at === segments.length - 1 ? findAggregate(map, table, head) : undefined
    if (aggregate === undefined)
      throw unknownRelation(param(), head, table, ['*', ...relations.keys(), ...aggregatesOf(map, table).names])
    if (!aggregates.some((each) => each.key === aggregate.key)) aggregates.push(aggregate)
    return
  }
  const names = head === '*' ? [...relations.keys()] : [head]
  const last = at === segments.length - 1
  let added = 0
  let firstError: unknown
  for (const name of names) {
    const relation = relations.get(name)
    if (relation === undefined) continue
    let node: WithNode | undefined
    for (const candidate of nodes) if (candidate.relation.name === name) node = candidate
    if (node === undefined) {
      const children: Record<string, WithNode[]> = {}
      for (const related of relatedTables(relation)) children[related] = []
      node = { relation, children, param: param() }
      nodes.push(node)
    }
    if (last) {
      added++
      continue
    }
    for (const related in node.children) {
      try {
        const below = node.aggregates?.[related] ?? []
        addPath(map, related, node.children[related] ?? [], segments, at + 1, param, below)
        if (below.length > 0) (node.aggregates ??= {})[related] = below
        added++
      } catch (error) {
        if (!(error instanceof QueryParamsError)) throw error
        firstError ??= error
      }
    }
  }
  if (added === 0 && firstError !== undefined) throw firstError
}
