import type { Knex } from 'knex'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import { rowNormalizer } from '../normalize/row-normalizer.ts'
import type { RelationMap } from '../relation-map.ts'
import type { Row } from '../normalize/row-values.ts'

/** Normalizes rows of any table of `map` read through `client`. */
export function rowsOfTable(client: Knex.Client, map: RelationMap): (table: string, rows: readonly Row[]) => void {
  const reading = driverReadingOf(client)
  return (table, rows) => rowNormalizer(map, table, reading)(rows)
}
