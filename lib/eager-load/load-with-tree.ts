import type { Knex } from 'knex'
import { MAX_IN_BINDINGS } from '../dialect/in-list-bindings.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import type { RelationMap } from '../relation-map.ts'
import type { WithNode } from '../validate/query-plan.ts'
import type { EagerBatchSettings, EagerLoadOptions } from './options.ts'
import { knexClientOf } from '../knex/client.ts'
import { unhandled } from '../map/relation-kinds.ts'
import { loadAggregates } from './load-aggregates.ts'
import { loadDirect } from './load-direct.ts'
import { keyProperty, parentKeysFor } from './keys.ts'
import { loadMorphTo } from './load-morph-to.ts'
import { requireParentColumns } from './require-parent-columns.ts'
import { stripColumns } from './strip-columns.ts'
import type { LoadedBatch } from './loaded-batch.ts'
import type { Row } from '../normalize/row-values.ts'
import { RowBudget } from './row-budget.ts'

/**
 * Eager-loads `nodes` onto `rows` of `table`, in place: each relation is attached under its name, as
 * an object or `null` (belongsTo, hasOne, morphOne, morphTo) or an array ordered by the related
 * primary key (hasMany, belongsToMany, morphMany). Runs one query per relation per level (per target
 * table for morphTo), `WHERE key IN (…)` over the distinct parent keys, split into chunks of
 * `chunkSize` keys; nested nodes load on the related rows of all parents at once. Every query of the tree
 * draws on one row budget (`options.budget`): past it, loading stops with a `limit_exceeded` error naming
 * the node's `with` entry, having fetched at most one row more than the budget. Related rows carry
 * only their table's allow-listed columns, plus the aggregates asked for on them (`posts.commentsCount`, see
 * `loadAggregates`). `source` is the knex instance, transaction or client the
 * main query ran on, so that these queries run on the same connection or transaction.
 *
 * The parent rows must carry the columns {@link parentKeysFor} names; a missing one throws.
 *
 * @example
 * const users = await db('users').select('id', 'name')
 * const posts = relationsOf(map, 'users').get('posts')
 * if (posts) await loadWithTree(db, 'users', users, [{ relation: posts, children: {} }], map)
 */
export async function loadWithTree(
  source: Knex | Knex.Client,
  table: string,
  rows: Row[],
  nodes: readonly WithNode[],
  map: RelationMap,
  options: EagerLoadOptions = {},
): Promise<void> {
  if (rows.length === 0 || nodes.length === 0) return
  const client = knexClientOf(source)
  const dialect = dialectOf(client)
  const settings: EagerBatchSettings = {
    chunkSize: options.chunkSize ?? MAX_IN_BINDINGS,
    budget: options.budget ?? new RowBudget(APPLY_DEFAULTS.maxEagerRows),
    nullsSortLargest: dialect.nullsSortLargest,
    planner: dialect,
  }
  if (options.guards !== undefined) settings.guards = options.guards
  if (options.bound !== undefined) settings.bound = options.bound
  if (options.schema !== undefined) settings.schema = options.schema
  if (options.normalize !== undefined) settings.json = true
  await loadNodes(client, table, rows, nodes, map, settings, options.normalize)
}

async function loadNodes(
  client: Knex.Client,
  table: string,
  rows: Row[],
  nodes: readonly WithNode[],
  map: RelationMap,
  settings: EagerBatchSettings,
  normalize: EagerLoadOptions['normalize'],
): Promise<void> {
  if (rows.length === 0 || nodes.length === 0) return
  const parents = [...new Set(rows)]
  for (const node of nodes) {
    const { relation } = node
    if (relation.parentTable !== table) {
      throw new Error(
        `knex-query-params: relation '${relation.name}' belongs to '${relation.parentTable}', not '${table}'`,
      )
    }
    requireParentColumns(
      parents,
      parentKeysFor([node]).map((column) => keyProperty(parents, map, table, column)),
      table,
      relation.name,
    )
    const param = node.param ?? 'with'
    let batches: LoadedBatch[]
    switch (relation.kind) {
      case 'direct':
        batches = [
          await loadDirect(client, relation, parents, node.children[relation.table] ?? [], map, settings, param),
        ]
        break
      case 'morphTo':
        batches = await loadMorphTo(client, relation, parents, node.children, map, settings, param)
        break
      default:
        return unhandled(relation)
    }
    for (const batch of batches) {
      await loadNodes(client, batch.table, batch.rows, node.children[batch.table] ?? [], map, settings, normalize)
      await loadAggregates(
        client,
        batch.table,
        batch.rows,
        node.aggregates?.[batch.table] ?? [],
        map,
        settings.chunkSize,
        settings.guards,
        settings.bound,
        settings.schema,
      )
      stripColumns(batch.rows, batch.extra)
      normalize?.(batch.table, batch.rows)
    }
  }
}
