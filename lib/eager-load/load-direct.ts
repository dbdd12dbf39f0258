import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import { clientColumn, primaryKeyColumns } from '../map/columns.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { WithNode } from '../validate/query-plan.ts'
import { distinctRowKeys, groupByRowKey, keyProperty, parentKeysFor, rowKeyOf, whereKeyIn } from './keys.ts'
import { parentKeyColumns, relatedKeyColumns } from '../validate/key-pairs.ts'
import { fetchChunked } from './fetch-chunked.ts'
import type { EagerBatchSettings } from './options.ts'
import { PIVOT_ALIAS, RANK_ALIAS } from './hidden-aliases.ts'
import type { LoadedBatch } from './loaded-batch.ts'
import type { Row } from '../normalize/row-values.ts'
import { relatedSelection } from './related-selection.ts'
import { queryOn } from './query-on.ts'
import { topPerParent } from '../dialect/top-per-parent.ts'
import { topPerParentOf } from '../plan/top-per-parent.ts'

/**
 * Loads one direct relation (belongsTo, hasOne, hasMany, belongsToMany, morphOne, morphMany) for all
 * `parents` with one query per chunk of distinct parent keys, and attaches the related rows under
 * the relation's name: the first match (by the related primary key) or `null` for a to-one relation,
 * every match ordered by the related primary key (all its columns for a composite key) for a to-many one.
 * A hasOne or morphOne query returns one row per parent, and a to-many relation that declares `limit`
 * at most that many per parent in its declared order (see {@link topPerParent}). Each query asks for at
 * most the rows left in `settings.budget` plus one.
 * Keys are read under the property the rows carry them as (see {@link keyProperty}).
 */
export async function loadDirect(
  client: Knex.Client,
  relation: DirectRelation,
  parents: readonly Row[],
  children: readonly WithNode[],
  map: RelationMap,
  settings: EagerBatchSettings,
  param: string,
): Promise<LoadedBatch> {
  const { chunkSize, guards, budget, nullsSortLargest, planner, bound, json, schema } = settings
  const { name, many, table, parentKey, relatedKey, pivot, morph } = relation
  const parentProperties = parentKeyColumns(relation).map((column) =>
    keyProperty(parents, map, relation.parentTable, column),
  )
  const keys = distinctRowKeys(parents, parentProperties)
  if (keys.length === 0) {
    for (const parent of parents) parent[name] = many ? [] : null
    return { table, rows: [], extra: [] }
  }

  const nested = parentKeysFor(children)
  const relatedKeys = relatedKeyColumns(relation)
  const selection = relatedSelection(map, table, pivot === undefined ? [...relatedKeys, ...nested] : nested)
  const { columns } = selection
  const keyColumns = primaryKeyColumns(map, table).map((column) => `${table}.${column}`)
  const top = topPerParentOf(relation, planner)

  const related = await fetchChunked(
    keys,
    chunkSize,
    budget,
    param,
    (chunkKeys, most) => {
      const query = queryOn(client, table, schema)
      // A composite key partitions by each of its columns, matched as a tuple: `(a, b) in ((?, ?), …)`.
      const partitions =
        pivot === undefined
          ? relatedKeys.map((column) => `${table}.${column}`)
          : [`${pivot.table}.${pivot.parentColumn}`]
      const partition = partitions[0] ?? ''
      if (pivot === undefined) query.select(columns)
      else {
        query
          .select([...columns, `${partition} as ${PIVOT_ALIAS}`])
          .innerJoin(pivot.table, `${pivot.table}.${pivot.relatedColumn}`, `${table}.${relatedKey}`)
      }
      // A top-N query adds its parent-key condition itself (see topPerParent).
      if (top === undefined) whereKeyIn(query, partitions, chunkKeys)
      if (morph !== undefined) query.where(`${table}.${morph.column}`, morph.value)
      guards?.applyTo(query, table, table)
      if (pivot !== undefined) guards?.applyTo(query, pivot.table, pivot.table)
      if (top !== undefined) {
        const ordered = {
          limit: top.limit,
          orders: top.orders.map((order) => ({ ...order, column: `${table}.${order.column}` })),
        }
        const parentKeys = { table: relation.parentTable, column: parentKey, values: chunkKeys as Knex.Value[] }
        return topPerParent(client, query, {
          partition: partitions.length > 1 ? partitions : partition,
          top: ordered,
          rankAlias: RANK_ALIAS,
          keyColumns,
          nullsSortLargest,
          form: top.form,
          parents: parentKeys,
          most,
        })
      }
      for (const column of keyColumns) query.orderBy(column)
      return query.limit(most)
    },
    bound,
    json,
  )

  const byKey = groupByRowKey(
    related,
    pivot === undefined ? relatedKeys.map((column) => clientColumn(map, table, column) ?? column) : [PIVOT_ALIAS],
  )
  // Each related row is in exactly one group, so the attached rows are those of the groups some parent
  // matched. A group goes to its first parent as is; a later parent with the same key gets a copy. Each
  // parent is written once: driver rows are often dictionary-mode objects, where every write costs.
  const matched = new Set<Row[]>()
  for (const parent of parents) {
    const key = rowKeyOf(parent, parentProperties)
    const matches = key === null ? undefined : byKey.get(key)
    if (matches === undefined) {
      parent[name] = many ? [] : null
      continue
    }
    const first = !matched.has(matches)
    if (first) matched.add(matches)
    if (many) parent[name] = first ? matches : [...matches]
    else parent[name] = matches[0] ?? null
  }
  let rows: Row[] = []
  let attached = 0
  for (const group of matched) {
    if (!many) {
      if (group[0] !== undefined) rows.push(group[0])
      continue
    }
    attached += group.length
  }
  if (many) rows = attached === related.length ? related : [...matched].flat()
  const extra = pivot === undefined ? selection.extra : [...selection.extra, PIVOT_ALIAS]
  if (top !== undefined) extra.push(RANK_ALIAS)
  return { table, rows, extra }
}
