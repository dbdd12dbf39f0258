import type { Knex } from 'knex'
import type { PlannedAggregate } from '../validate/planned-aggregate.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeAggregate } from './write-aggregate.ts'

/**
 * Adds each aggregate of the row known as `ref` to the select list of `builder` under its key, as one raw
 * fragment: `(select count(*) from "comments" where …) as "comments_count"`. `out` is an empty writer.
 */
export function selectAggregates(builder: Knex.QueryBuilder, out: SqlWriter, ref: string, aggregates: readonly PlannedAggregate[]): void {
  const map = out.guards?.map
  if (aggregates.length === 0 || map === undefined) return
  aggregates.forEach((aggregate, index) => {
    if (index > 0) out.text(', ')
    writeAggregate(out, aggregate, ref, new Set([ref]), map)
    out.text(` as ${out.names.table(aggregate.key, aggregate.key)}`)
  })
  builder.select(out.toRaw(builder.client))
}
