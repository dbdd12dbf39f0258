import type { RelationMap } from '../relation-map.ts'
import { resolveRelation } from './relation-from-definition.ts'
import type { ResolvedRelation } from './resolved-relation.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'

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

/**
 * `limit_exceeded` when a relation path (of a `wheres` column, a `relationsExists` entry or an `orders`
 * column) goes through more than `max` relations: each is one more nested subquery, and deep nesting
 * makes a database slow (a to-many hop multiplies the work) or refuse the query (MySQL's 61-table join
 * limit, SQLite's expression depth).
 */
export function checkRelationDepth(relations: number, max: number, param: string): void {
  if (relations > max) {
    throw new QueryParamsError(`Parameter '${param}' goes through more than ${max} relations.`, {
      code: 'limit_exceeded',
      param,
    })
  }
}

/** The `unknown_relation` error for `name` on `table`, listing the relations the client may use. */
export function unknownRelation(
  param: string,
  name: string,
  table: string,
  allowed: Iterable<string>,
): QueryParamsError {
  return new QueryParamsError(`Parameter '${param}': '${name}' is not a relation of ${table}.`, {
    code: 'unknown_relation',
    param,
    allowed: [...allowed],
  })
}
