import type { RelationMap } from '../relation-map.ts'
import { ensureValidRelationMap } from './validate-relation-map.ts'

/**
 * Declares a relation map: checks it now, at startup, and returns it unchanged with its literal type, so
 * the compiler knows its tables, columns and relations (see {@link TableRecord}). A mistake throws a
 * plain `Error` naming the path and the fix; a map passed through here is not checked again by
 * `applyQueryParams` or `loadRelations`.
 *
 * @throws {Error} e.g. `knex-query-params: users.relations.posts.type: 'hasmany' is not a relation type; expected one
 * of belongsTo, hasOne, …`
 * @example
 * export const relationMap = defineRelationMap({
 *   users: {
 *     columns: { id: 'integer', name: 'string', email: { type: 'string', nullable: false, unique: true } },
 *     relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
 *   },
 *   posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
 * })
 */
export function defineRelationMap<const Map extends RelationMap>(map: Map): Map {
  ensureValidRelationMap(map)
  return map
}
