import type { RelationMap } from '../relation-map.ts'
import { relatedTables, relationsOf } from '../validate/relations-of.ts'

/** A relation path from a base table (`posts.comments`) and one table it reaches (a `morphTo` reaches several). */
export interface RelationPath {
  /** The relation names joined by dots; `''` for the base table itself. */
  path: string
  /** How many relations the path goes through. */
  depth: number
  table: string
  /** Every relation on the path is a direct to-one one (belongsTo, hasOne, morphOne): an order may go through it. */
  toOne: boolean
}

/**
 * Every relation path of `table` up to `depth` relations, the base table first (`path` `''`), breadth first.
 * A path through a `morphTo` appears once per target table.
 */
export function relationPaths(map: RelationMap, table: string, depth: number): RelationPath[] {
  const paths: RelationPath[] = [{ path: '', depth: 0, table, toOne: true }]
  for (let at = 0; at < paths.length; at++) {
    const from = paths[at]
    if (from === undefined || from.depth >= depth) continue
    for (const relation of relationsOf(map, from.table).values()) {
      const path = from.path === '' ? relation.name : `${from.path}.${relation.name}`
      const toOne = from.toOne && relation.kind === 'direct' && !relation.many
      for (const related of relatedTables(relation)) paths.push({ path, depth: from.depth + 1, table: related, toOne })
    }
  }
  return paths
}

/** The paths of {@link relationPaths} by path, each with the tables it reaches. */
export function tablesByPath(paths: readonly RelationPath[]): Map<string, RelationPath[]> {
  const byPath = new Map<string, RelationPath[]>()
  for (const each of paths) {
    const list = byPath.get(each.path)
    if (list === undefined) byPath.set(each.path, [each])
    else list.push(each)
  }
  return byPath
}
