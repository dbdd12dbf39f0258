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
import { distinctKeys, keyOf, keyProperty } from './keys.ts'
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
  const byParentKey = new Map<string, PlannedAggregate[]>()
  for (const aggregate of aggregates) {
    const list = byParentKey.get(aggregate.relation.parentKey) ?? []
    list.push(aggregate)
    byParentKey.set(aggregate.relation.parentKey, list)
  }
  const dialect = dialectOf(client)
  const reading = driverReadingOf(client)
  for (const [parentKey, group] of byParentKey) {
    const property = keyProperty(rows, map, table, parentKey)
    requireParentColumns(rows, [property], table, group[0]?.name ?? '')
    const keys = distinctKeys(rows, property)
    const found: Row[] = []
    for (const chunkKeys of chunk(keys, chunkSize)) {
      const query = queryOn(client, table, schema)
      const names = Identifiers.for(query)
      const out = new SqlWriter(names, dialect, 'insensitive', guards)
      out.text(`${names.column(table, parentKey)} as ${names.name(KEY)}`)
      for (const aggregate of group) {
        out.text(', ')
        writeAggregate(out, aggregate, table, new Set([table]), map, client)
        out.text(` as ${names.name(aggregate.key)}`)
      }
      const result: unknown = await runBounded(
        query.select(out.toRaw(client)).whereIn(`${table}.${parentKey}`, chunkKeys),
        bound,
      )
      for (const row of toRows(result)) found.push(row)
    }
    const byKey = new Map<string, Row>()
    for (const row of found) {
      const key = keyOf(row[KEY])
      if (key !== null) byKey.set(key, row)
    }
    for (const row of rows) {
      const key = keyOf(row[property])
      const values = key === null ? undefined : byKey.get(key)
      for (const aggregate of group)
        row[aggregate.key] = aggregateValue(aggregate, values?.[aggregate.key] ?? null, reading)
    }
  }
}
