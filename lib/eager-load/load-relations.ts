import type { Knex } from 'knex'
import { APPLY_DEFAULTS } from '../options.ts'
import type { LoadedRelations } from '../map/table-record.ts'
import type { AggregateRecord } from '../map/aggregate-record.ts'
import type { ContextOf, ContextOptions } from '../map/context-options.ts'
import { ensureValidRelationMap } from '../map/validate-relation-map.ts'
import type { RelationMap } from '../relation-map.ts'
import { rowsOfTable } from './table-normalizer.ts'
import type { Row } from '../normalize/row-values.ts'
import { RowGuards } from '../guard/row-guards.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { buildWithTree } from '../validate/build-with-tree.ts'
import { MAX_IN_BINDINGS } from '../dialect/in-list-bindings.ts'
import { knexClientOf } from '../knex/client.ts'
import type { LoadRelationsOptions } from './options.ts'
import { loadWithTree } from './load-with-tree.ts'
import { loadAggregates } from './load-aggregates.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import type { PlannedAggregate } from '../validate/query-plan.ts'
import { RowBudget } from './row-budget.ts'

/**
 * Eager-loads relation paths (`['posts.comments', 'team']`, `['*']`) and aggregates (`['postsCount',
 * 'posts.commentsCount']`) onto rows you fetched yourself, in place, with one `WHERE key IN (…)` query per
 * relation per level (and one per level for its aggregates). The rows must carry the key
 * columns the relations need (e.g. `id` for `posts`, `team_id` for `team`). Each related table's `guard`
 * applies to its query, with `options.context`. `options.timeout` and `options.signal` bound the batches
 * together: a batch still running then is cancelled on the server. Every allow-listed column of the rows (yours
 * and the loaded ones) is rewritten into the JSON value of its declared type unless `options.values` is
 * `'driver'`. The rows it resolves to
 * are the same objects, typed with the table's relations as optional properties when the map is a
 * literal from `defineRelationMap` (see `LoadedRelations`), as `unknown` properties otherwise. When the
 * map's guards read a context, the options and their `context` are required by the types.
 *
 * At most `options.maxEagerRows` (default 10,000) related rows load in all; each query asks for at most the
 * rows left plus one.
 *
 * @throws {QueryParamsError} `unknown_relation` or `limit_exceeded` for a path the map does not allow, or
 * `limit_exceeded` when the paths would load more than `maxEagerRows` rows.
 * @throws {Error} for a mistake in the relation map, naming its path: a server bug, never a 400.
 * @example
 * const users = await db<User>('users').select('id', 'name', 'team_id').where('id', 1)
 * const loaded = await loadRelations(db, 'users', users, ['posts.comments', 'team'], relationMap, { context: { tenantId } })
 * loaded[0]?.posts  // with a literal map: TableRecord<typeof relationMap, 'posts'>[] | undefined
 */
export async function loadRelations<Rec extends object, Map extends RelationMap, Table extends keyof Map & string>(
  db: Knex | Knex.Transaction,
  table: Table,
  rows: Rec[],
  paths: readonly string[],
  relationMap: Map,
  ...[given]: ContextOptions<LoadRelationsOptions<ContextOf<Map>>, ContextOf<Map>>
): Promise<Array<Rec & LoadedRelations<Map, Table> & AggregateRecord<Map, Table>>> {
  const limits: LoadRelationsOptions<ContextOf<Map>> = given ?? {}
  const client = knexClientOf(db)
  dialectOf(client, limits.dialect)
  ensureValidRelationMap(relationMap)
  const aggregates: PlannedAggregate[] = []
  const nodes = buildWithTree(
    relationMap,
    table,
    paths,
    (index) => (index === undefined ? 'with' : `with[${index}]`),
    {
      maxWith: limits.maxWith ?? APPLY_DEFAULTS.maxWith,
      maxWithDepth: limits.maxWithDepth ?? APPLY_DEFAULTS.maxWithDepth,
    },
    aggregates,
  )
  const budget = new RowBudget(limits.maxEagerRows ?? APPLY_DEFAULTS.maxEagerRows)
  const guards = RowGuards.of(relationMap, limits.context, client)
  const bound = StatementBound.of(limits)
  const normalize = limits.values === 'driver' ? undefined : rowsOfTable(client, relationMap)
  await loadWithTree(client, table, rows as Row[], nodes, relationMap, {
    guards,
    budget,
    ...(normalize === undefined ? {} : { normalize }),
    ...(bound === undefined ? {} : { bound }),
    ...(limits.schema === undefined ? {} : { schema: limits.schema }),
  })
  await loadAggregates(
    client,
    table,
    [...new Set(rows as Row[])],
    aggregates,
    relationMap,
    MAX_IN_BINDINGS,
    guards,
    bound,
    limits.schema,
  )
  normalize?.(table, rows as Row[])
  return rows as Array<Rec & LoadedRelations<Map, Table> & AggregateRecord<Map, Table>>
}
