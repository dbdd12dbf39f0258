import type { RelationMap } from '../relation-map.ts'
import { resolveRelation } from './resolve-relation.ts'
import type { ResolvedRelation } from './resolved-relation.ts'

const cache = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, ResolvedRelation>>>()

/** The resolved relations of one table of the map, by name (memoised per map object). */
export function relationsOf(map: RelationMap, table: string): ReadonlyMap<string, ResolvedRelation> {
  let byTable = cache.get(map)
  if (byTable === undefined) {
    byTable = new Map()
    cache.set(map, byTable)
  }
  let relations = byTable.get(table)
  if (relations === undefined) {
    relations = new Map(
      Object.entries(map[table]?.relations ?? {}).map(([name, def]) => [name, resolveRelation(map, table, name, def)]),
    )
    byTable.set(table, relations)
  }
  return relations
}

/** The tables a relation leads to: one for a direct relation, one per target for `morphTo`. */
export function relatedTables(relation: ResolvedRelation): string[] {
  return relation.kind === 'direct' ? [relation.table] : relation.targets.map((target) => target.table)
}
