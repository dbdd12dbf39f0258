import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RelationMap } from '../relation-map.ts'
import { relatedTables, relationsOf } from './relations-of.ts'
import { unknownRelation } from './unknown-relation.ts'
import type { WithNode } from './with-tree.ts'

/** Caps on eager loading. */
export interface WithLimits {
  maxWith: number
  maxWithDepth: number
}

/**
 * Builds the eager-loading tree of `with` paths such as `posts.comments`, `*` (every relation of the
 * table) or `posts.*`. Paths sharing a prefix share nodes. After a `morphTo`, a segment applies to
 * every target table that has it. Unknown relations are `unknown_relation`; caps are `limit_exceeded`.
 */
export function buildWithTree(
  map: RelationMap,
  table: string,
  paths: readonly string[],
  param: (index?: number) => string,
  limits: WithLimits,
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
    addPath(map, table, roots, segments, 0, () => param(index))
  })
  return roots
}

/** Adds `segments` from position `at` under `nodes` (relations of `table`); `param` names the path in errors. */
function addPath(map: RelationMap, table: string, nodes: WithNode[], segments: readonly string[], at: number, param: () => string): void {
  const head = segments[at] ?? ''
  const relations = relationsOf(map, table)
  if (head !== '*' && !relations.has(head)) {
    throw unknownRelation(param(), head, table, ['*', ...relations.keys()])
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
        addPath(map, related, node.children[related] ?? [], segments, at + 1, param)
        added++
      } catch (error) {
        if (!(error instanceof QueryParamsError)) throw error
        firstError ??= error
      }
    }
  }
  if (added === 0 && firstError !== undefined) throw firstError
}
