import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import { clientColumn, primaryKeyColumns } from '../map/columns.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { WithNode } from '../validate/query-plan.ts'
import { distinctKeys, groupByKey, keyOf, keyProperty, parentKeysFor } from './keys.ts'
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
  const { chunkSize, guards, budget, nullsSortLargest, topForm, bound, json, schema } = settings
  const { name, many, table, parentKey, relatedKey, pivot, morph } = relation
  const parentProperty = keyProperty(parents, map, relation.parentTable, parentKey)
  const keys = distinctKeys(parents, parentProperty)
  if (keys.length === 0) {
    for (const parent of parents) parent[name] = many ? [] : null
    return { table, rows: [], extra: [] }
  }

  const nested = parentKeysFor(children)
  const selection = relatedSelection(map, table, pivot === undefined ? [relatedKey, ...nested] : nested)
  const { columns } = selection
  const keyColumns = primaryKeyColumns(map, table).map((column) => `${table}.${column}`)
  const top = topPerParentOf(relation)

  const related = await fetchChunked(
    keys,
    chunkSize,
    budget,
    param,
    (chunkKeys, most) => {
      const query = queryOn(client, table, schema)
      const partition = pivot === undefined ? `${table}.${relatedKey}` : `${pivot.table}.${pivot.parentColumn}`
      if (pivot === undefined) query.select(columns)
      else {
        query
          .select([...columns, `${partition} as ${PIVOT_ALIAS}`])
          .innerJoin(pivot.table, `${pivot.table}.${pivot.relatedColumn}`, `${table}.${relatedKey}`)
      }
      // A top-N query adds its parent-key condition itself (see topPerParent).
      if (top === undefined) query.whereIn(partition, chunkKeys)
      if (morph !== undefined) query.where(`${table}.${morph.column}`, morph.value)
      guards?.applyTo(query, table, table)
      if (pivot !== undefined) guards?.applyTo(query, pivot.table, pivot.table)
      if (top !== undefined) {
        const ordered = {
          limit: top.limit,
          orders: top.orders.map((order) => ({ ...order, column: `${table}.${order.column}` })),
        }
        const parentKeys = { table: relation.parentTable, column: parentKey, values: chunkKeys }
        return topPerParent(client, query, {
          partition,
          top: ordered,
          rankAlias: RANK_ALIAS,
          keyColumns,
          nullsSortLargest,
          form: topForm,
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

  const byKey = groupByKey(
    related,
    pivot === undefined ? (clientColumn(map, table, relatedKey) ?? relatedKey) : PIVOT_ALIAS,
  )
  // Each related row is in exactly one group, so the attached rows are those of the groups some parent
  // matched. A group goes to its first parent as is; a later parent with the same key gets a copy. Each
  // parent is written once: driver rows are often dictionary-mode objects, where every write costs.
  const matched = new Set<Row[]>()
  for (const parent of parents) {
    const key = keyOf(parent[parentProperty])
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
