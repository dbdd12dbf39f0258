import type { Knex } from 'knex'
import type { RelationMap } from '../relation-map.ts'
import { clientColumn, primaryKeyColumns } from '../map/columns.ts'
import type { MorphTarget, MorphToResolved } from '../validate/resolved-relation.ts'
import type { WithNode } from '../validate/query-plan.ts'
import { distinctKeys, groupByKey, keyOf, keyProperty, parentKeysFor } from './keys.ts'
import type { EagerBatchSettings } from './options.ts'
import { fetchChunked } from './fetch-chunked.ts'
import type { LoadedBatch } from './loaded-batch.ts'
import type { Row } from '../normalize/row-values.ts'
import { queryOn } from './query-on.ts'
import { relatedSelection } from './related-selection.ts'

/**
 * Loads a morphTo relation for all `parents`: groups them by target table (through the value of their
 * type column), then runs one query per target table and chunk of distinct ids. Parents with an
 * unknown type, a null id or no matching row get `null`. Each query asks for at most the rows left in
 * `settings.budget` plus one. Returns one batch per target table queried.
 */
export async function loadMorphTo(
  client: Knex.Client,
  relation: MorphToResolved,
  parents: readonly Row[],
  children: Readonly<Record<string, readonly WithNode[]>>,
  map: RelationMap,
  settings: EagerBatchSettings,
  param: string,
): Promise<LoadedBatch[]> {
  const { name } = relation
  const { chunkSize, guards, budget, bound, json, schema } = settings
  const typeColumn = keyProperty(parents, map, relation.parentTable, relation.typeColumn)
  const idColumn = keyProperty(parents, map, relation.parentTable, relation.idColumn)
  const targetByType = new Map<string, MorphTarget>(relation.targets.map((target) => [target.typeValue, target]))
  const parentsByTable = new Map<string, { target: MorphTarget; parents: Row[] }>()
  for (const parent of parents) {
    parent[name] = null
    const type = keyOf(parent[typeColumn])
    const target = type === null ? undefined : targetByType.get(type)
    if (target === undefined) continue
    const group = parentsByTable.get(target.table)
    if (group === undefined) parentsByTable.set(target.table, { target, parents: [parent] })
    else group.parents.push(parent)
  }

  const batches: LoadedBatch[] = []
  for (const [table, group] of parentsByTable) {
    const keys = distinctKeys(group.parents, idColumn)
    if (keys.length === 0) continue
    const selection = relatedSelection(map, table, [group.target.key, ...parentKeysFor(children[table] ?? [])])
    const related = await fetchChunked(
      keys,
      chunkSize,
      budget,
      param,
      (chunkKeys, most) => {
        const query = queryOn(client, table, schema)
          .select(selection.columns)
          .whereIn(`${table}.${group.target.key}`, chunkKeys)
        guards?.applyTo(query, table, table)
        for (const column of primaryKeyColumns(map, table)) query.orderBy(`${table}.${column}`)
        return query.limit(most)
      },
      bound,
      json,
    )
    const byKey = groupByKey(related, clientColumn(map, table, group.target.key) ?? group.target.key)
    const attached = new Set<Row>()
    for (const parent of group.parents) {
      const key = keyOf(parent[idColumn])
      const match = key === null ? undefined : byKey.get(key)?.[0]
      if (match === undefined) continue
      parent[name] = match
      attached.add(match)
    }
    batches.push({ table, rows: [...attached], extra: selection.extra })
  }
  return batches
}
