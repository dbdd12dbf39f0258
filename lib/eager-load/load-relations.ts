import type { Knex } from 'knex'
import { APPLY_DEFAULTS } from '../options.ts'
import type { RelationMap } from '../relation-map.ts'
import { RowGuards } from '../apply/row-guards.ts'
import { buildWithTree } from '../validate/build-with-tree.ts'
import { knexClientOf } from './knex-client-of.ts'
import type { LoadRelationsOptions } from './load-relations-options.ts'
import { loadWithTree } from './load-with-tree.ts'
import type { Row } from './row.ts'

/**
 * Eager-loads relation paths (`['posts.comments', 'team']`, `['*']`) onto rows you fetched yourself,
 * in place, with one `WHERE key IN (…)` query per relation per level. The rows must carry the key
 * columns the relations need (e.g. `id` for `posts`, `team_id` for `team`). Each related table's `guard`
 * applies to its query, with `options.context`.
 *
 * @throws {QueryParamsError} `unknown_relation` or `limit_exceeded` for a path the map does not allow.
 * @example
 * const users = await db('users').select('id', 'name', 'team_id').where('id', 1)
 * await loadRelations(db, 'users', users, ['posts.comments', 'team'], relationMap, { context: { tenantId } })
 */
export async function loadRelations<T extends Row, Context = unknown>(
  db: Knex | Knex.Transaction,
  table: string,
  rows: T[],
  paths: readonly string[],
  relationMap: RelationMap<Context>,
  limits: LoadRelationsOptions<Context> = {},
): Promise<T[]> {
  const nodes = buildWithTree(relationMap, table, paths, (index) => (index === undefined ? 'with' : `with[${index}]`), {
    maxWith: limits.maxWith ?? APPLY_DEFAULTS.maxWith,
    maxWithDepth: limits.maxWithDepth ?? APPLY_DEFAULTS.maxWithDepth,
  })
  const guards = RowGuards.of(relationMap, limits.context, knexClientOf(db))
  await loadWithTree(db, table, rows, nodes, relationMap, guards === undefined ? {} : { guards })
  return rows
}
