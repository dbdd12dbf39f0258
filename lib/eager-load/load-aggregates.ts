import type { Knex } from 'knex'
import { Identifiers } from '../sql/identifiers.ts'
import type { RowGuards } from '../guard/row-guards.ts'
import { runBounded } from '../bound/run-within-bound.ts'
import type { StatementBound } from '../bound/statement-bound.ts'
import { SqlWriter } from '../sql/sql-writer.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate } from '../validate/query-plan.ts'
import { aggregateValue } from './convert-aggregates.ts'
import { distinctRowKeys, keyProperty, rowKeyOf, whereKeyIn } from './keys.ts'
import { parentKeyColumns } from '../validate/key-pairs.ts'
import { chunk } from './fetch-chunked.ts'
import { requireParentColumns } from './require-parent-columns.ts'
import { toRows } from './to-rows.ts'
import { queryOn } from './query-on.ts'
import type { Row } from '../normalize/row-values.ts'

const KEY = 'kqp_key'

/**
 * Adds `aggregates` (`comments_count`…) to `rows` of `table`, in place, with one query per parent key column
 * per chunk of distinct keys: the aggregates as correlated subqueries (see `writeAggregate`) on the rows of
 * `table` whose key is among those of `rows`. The guard of `table` itself does not apply (the rows are already
 * the caller's); those of the related tables do, inside each aggregate. A row without a key gets a count of 0,
 * `false`, or `null`. Each query runs within `bound` (the request's timeout and signal). Used for
 * `with[i]=posts.commentsCount` and by `loadRelations`.
 *
 * ```sql
 * select "posts"."id" as "kqp_key", (select count(*) from "comments" where "comments"."post_id" = "posts"."id") as
 * "comments_count"
 * from "posts" where "posts"."id" in (?, ?, …)
 * ```
 */
export async function loadAggregates(
  client: Knex.Client,
  table: string,
  rows: readonly Row[],
  aggregates: readonly PlannedAggregate[],
  map: RelationMap,
  chunkSize: number,
  guards?: RowGuards,
  bound?: StatementBound,
  schema?: string,
): Promise<void> {
  if (rows.length === 0 || aggregates.length === 0) return
  // Grouped by the parent's key columns (a composite key's, joined with commas, is one group).
  const byParentKey = new Map<string, PlannedAggregate[]>()
  for (const aggregate of aggregates) {
    const columns = parentKeyColumns(aggregate.relation).join(',')
    const list = byParentKey.get(columns) ?? []
    list.push(aggregate)
    byParentKey.set(columns, list)
  }
  const dialect = dialectOf(client)
  const reading = driverReadingOf(client)
  for (const [joined, group] of byParentKey) {
    const parentKeys = joined.split(',')
    const properties = parentKeys.map((column) => keyProperty(rows, map, table, column))
    requireParentColumns(rows, properties, table, group[0]?.name ?? '')
    const keys = distinctRowKeys(rows, properties)
    const found: Row[] = []
    const aliases = parentKeys.map((_, index) => (index === 0 ? KEY : `${KEY}_${index + 1}`))
    for (const chunkKeys of chunk(keys, chunkSize)) {
      const query = queryOn(client, table, schema)
      const names = Identifiers.for(query)
      const out = new SqlWriter(names, dialect, 'insensitive', guards)
      out.text(
        parentKeys
          .map((column, index) => `${names.column(table, column)} as ${names.name(aliases[index] ?? '')}`)
          .join(', '),
      )
      for (const aggregate of group) {
        out.text(', ')
        writeAggregate(out, aggregate, table, new Set([table]), map, client)
        out.text(` as ${names.name(aggregate.key)}`)
      }
      const keyColumns = parentKeys.map((column) => `${table}.${column}`)
      const result: unknown = await runBounded(
        whereKeyIn(query.select(out.toRaw(client)), keyColumns, chunkKeys),
        bound,
      )
      for (const row of toRows(result)) found.push(row)
    }
    const byKey = new Map<string, Row>()
    for (const row of found) {
      const key = rowKeyOf(row, aliases)
      if (key !== null) byKey.set(key, row)
    }
    for (const row of rows) {
      const key = rowKeyOf(row, properties)
      const values = key === null ? undefined : byKey.get(key)
      for (const aggregate of group)
        row[aggregate.key] = aggregateValue(aggregate, values?.[aggregate.key] ?? null, reading)
    }
  }
}
