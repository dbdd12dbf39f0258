import type { Knex } from 'knex'
import { schemaOf } from '../knex/builder-state.ts'

/** How a top-N eager-load query is written (see `Dialect.topPerParent`). */
export type TopPerParentForm = 'window' | 'lateral'

/** Where a batch's parent keys come from: their values, and the parent table's column that holds them. */
export interface ParentKeys {
  table: string
  column: string
  /** The values of `column`; with a composite `partition`, the list of each parent's key values. */
  values: readonly Knex.Value[] | readonly Knex.Value[][]
}

/** A relation's declared top N: at most `limit` rows per parent, in `orders` (database columns, qualified). */
export interface TopOrders {
  limit: number
  orders: ReadonlyArray<{ column: string; direction: 'asc' | 'desc'; nullable: boolean }>
}

/** Everything {@link topPerParent} needs beside the related-rows query. */
export interface TopPerParentSpec {
  /**
   * The related (or pivot) column that references the parent key, qualified: each parent's partition. The columns
   * of a composite key (`window` form only).
   */
  partition: string | readonly string[]
  top: TopOrders
  /** The alias of each row's rank among its parent's rows, for the caller to strip. */
  rankAlias: string
  /** The related table's primary key columns, qualified: the tie-breaker after the declared orders. */
  keyColumns: readonly string[]
  nullsSortLargest: boolean
  form: TopPerParentForm
  parents: ParentKeys
  /** Most rows the whole query may return. */
  most: number
}

/**
 * The first `top.limit` related rows of each parent of a batch, in the declared order, as one query.
 * `query` selects the related rows with every join, filter and guard, but no parent-key condition, which this
 * adds. Each row carries its rank among its parent's rows (`rankAlias`, to strip), and rows come ordered by
 * it, so each parent's rows arrive in its declared order. NULLs order as the smallest values, as everywhere in
 * the library (`nullsSortLargest` databases get `nulls first/last`). Two forms:
 * - `window`: `row_number() over (partition by <partition> order by <orders>, <key>)` in a derived table over
 *   `<partition> in (<keys>)`, kept up to the limit;
 * - `lateral`: for each distinct parent key, read back from the parent table (so that it has the column's
 *   type), `cross join lateral (… where <partition> = key order by … limit N)`, which reads only N rows per
 *   parent from an index on the order.
 */
export function topPerParent(client: Knex.Client, query: Knex.QueryBuilder, spec: TopPerParentSpec): Knex.QueryBuilder {
  const { top, partition, parents, rankAlias } = spec
  const parts: string[] = []
  const bindings: string[] = []
  for (const { column, direction, nullable } of top.orders) {
    const nulls = nullable && spec.nullsSortLargest ? (direction === 'asc' ? ' nulls first' : ' nulls last') : ''
    parts.push(`?? ${direction}${nulls}`)
    bindings.push(column)
  }
  const keyDirection = top.orders.at(-1)?.direction ?? 'asc'
  for (const column of spec.keyColumns) {
    parts.push(`?? ${keyDirection}`)
    bindings.push(column)
  }
  const order = parts.join(', ')
  if (spec.form === 'lateral') {
    if (typeof partition !== 'string') throw new Error('knex-query-params: a lateral top N takes a one-column key')
    const keys = client.queryBuilder()
    // The parents' table is in the schema the related rows are read from (a `withSchema` of the main query).
    const schema = schemaOf(query)
    if (schema !== undefined && !parents.table.includes('.')) keys.withSchema(schema)
    keys
      .distinct(`${parents.table}.${parents.column} as key`)
      .from(parents.table)
      .whereIn(`${parents.table}.${parents.column}`, parents.values as Knex.Value[])
    query
      .select(client.raw(`row_number() over (order by ${order}) as ??`, [...bindings, rankAlias]))
      .where(partition, client.ref('__kqp_keys.key'))
      .orderByRaw(order, bindings)
      .limit(top.limit)
    return client
      .queryBuilder()
      .select('__kqp_top.*')
      .from(keys.as('__kqp_keys'))
      .crossJoin(client.raw('lateral ? as ??', [query, '__kqp_top']))
      .orderBy(`__kqp_top.${rankAlias}`)
      .limit(spec.most)
  }
  const columns = typeof partition === 'string' ? [partition] : partition
  query.select(
    client.raw(`row_number() over (partition by ${columns.map(() => '??').join(', ')} order by ${order}) as ??`, [
      ...columns,
      ...bindings,
      rankAlias,
    ]),
  )
  if (typeof partition === 'string') query.whereIn(partition, parents.values as Knex.Value[])
  else query.whereIn([...partition], parents.values as Knex.Value[][])
  return client
    .queryBuilder()
    .select('*')
    .from(query.as('__kqp_ranked'))
    .where(rankAlias, '<=', top.limit)
    .orderBy(rankAlias)
    .limit(spec.most)
}
