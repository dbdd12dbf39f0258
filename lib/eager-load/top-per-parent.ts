import type { Knex } from 'knex'
import type { RelationTop } from '../validate/resolved-relation.ts'
import { RANK_ALIAS } from './rank-alias.ts'

/**
 * Narrows `query` (the related rows of a batch of parents, every filter and guard applied) to the first
 * `top.limit` rows of each parent, with one window function: `row_number() over (partition by <parent column>
 * order by <orders>, <key columns>)` numbered in a derived table, kept up to the limit and returned in rank
 * order, so each parent's rows arrive in its declared order. NULLs order as the smallest values, as
 * everywhere in the library (`nullsSortLargest` databases get `nulls first/last`). At most `most` rows.
 */
export function topPerParent(
  client: Knex.Client,
  query: Knex.QueryBuilder,
  partition: string,
  top: RelationTop,
  keyColumns: readonly string[],
  nullsSortLargest: boolean,
  most: number,
): Knex.QueryBuilder {
  const parts: string[] = []
  const bindings: string[] = [partition]
  for (const { column, direction, nullable } of top.orders) {
    const nulls = nullable && nullsSortLargest ? (direction === 'asc' ? ' nulls first' : ' nulls last') : ''
    parts.push(`?? ${direction}${nulls}`)
    bindings.push(column)
  }
  const keyDirection = top.orders.at(-1)?.direction ?? 'asc'
  for (const column of keyColumns) {
    parts.push(`?? ${keyDirection}`)
    bindings.push(column)
  }
  query.select(client.raw(`row_number() over (partition by ?? order by ${parts.join(', ')}) as ??`, [...bindings, RANK_ALIAS]))
  return client
    .queryBuilder()
    .select('*')
    .from(query.as('__kqp_ranked'))
    .where(RANK_ALIAS, '<=', top.limit)
    .orderBy(RANK_ALIAS)
    .limit(most)
}
