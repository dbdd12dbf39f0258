import type { DriverReading } from '../dialect/driver-reading.ts'
import { convertersFor } from '../normalize/convert-value.ts'
import type { PlannedAggregate } from '../validate/query-plan.ts'
import type { Row } from '../normalize/row-values.ts'

/**
 * Gives each aggregate on `rows` its JSON type on every database, in place: a count is a number (PostgreSQL
 * returns `bigint` as a string), an exists a boolean (MySQL and SQLite return 0/1), a sum, avg, min or max
 * of a numeric column a number or `null` (PostgreSQL and MySQL return `numeric`/`decimal` as strings); a
 * min or max of another type the JSON value of that column type (a `date` as `YYYY-MM-DD`, a `datetime` as
 * ISO 8601 in UTC), read as `reading` says the driver gives it.
 */
export function convertAggregates(
  rows: readonly Row[],
  aggregates: readonly PlannedAggregate[],
  reading: DriverReading,
): void {
  if (aggregates.length === 0) return
  for (const row of rows) {
    for (const aggregate of aggregates) {
      const { key } = aggregate
      if (!(key in row)) continue
      row[key] = aggregateValue(aggregate, row[key], reading)
    }
  }
}

/** One aggregate's value as its JSON type (see {@link convertAggregates}). */
export function aggregateValue(aggregate: PlannedAggregate, value: unknown, reading: DriverReading): unknown {
  switch (aggregate.kind) {
    case 'count':
      return value === null || value === undefined ? 0 : Number(value)
    case 'exists':
      return value === true || (value !== false && value !== null && value !== undefined && Number(value) === 1)
    default:
      if (value === null || value === undefined) return null
      if (aggregate.type === 'integer' || aggregate.type === 'number') return Number(value)
      if (aggregate.epochSeconds === true && (typeof value === 'number' || typeof value === 'bigint'))
        return convertersFor(reading).datetime(Number(value) * 1000)
      return convertersFor(reading)[aggregate.type](value)
  }
}
