import type { Knex } from 'knex'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import { rowNormalizer } from '../normalize/row-normalizer.ts'
import type { RelationMap } from '../relation-map.ts'
import type { Row } from '../normalize/row-values.ts'

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Narrows a query result to its rows; throws if the driver returned something else. */
export function toRows(result: unknown): Row[] {
  if (!Array.isArray(result) || !result.every(isRow)) {
    throw new Error('knex-query-params: an eager-load query did not return a list of rows')
  }
  return result
}

/** Deletes `columns` from every row, in place. */
export function stripColumns(rows: Iterable<Row>, columns: readonly string[]): void {
  if (columns.length === 0) return
  for (const row of rows) for (const column of columns) delete row[column]
}

/** Throws a configuration error when a parent row lacks a column eager-loading needs (it was not selected). */
export function requireParentColumns(rows: readonly Row[], columns: readonly string[], table: string, relation: string): void {
  for (const row of rows) {
    for (const column of columns) {
      if (!(column in row)) {
        throw new Error(`knex-query-params: eager-loading '${relation}' needs column ${table}.${column} on the parent rows; select it`)
      }
    }
  }
}

/** Related rows of one table, as attached to their parents, before nested loading and stripping. */
export interface LoadedBatch {
  table: string
  /** The distinct related row objects attached to at least one parent. */
  rows: Row[]
  /** Columns selected only for matching or nested loading, to delete when loading is done. */
  extra: string[]
}

/** Alias under which a `belongsToMany` query returns the pivot's parent column; stripped before rows are returned. */
export const PIVOT_ALIAS = '__kqp_pivot_parent_key'

/** Alias of the row number a top-N eager-load query ranks each parent's related rows by; stripped before rows are returned. */
export const RANK_ALIAS = '__kqp_rank'

/** Normalizes rows of any table of `map` read through `client`. */
export function rowsOfTable(client: Knex.Client, map: RelationMap): (table: string, rows: readonly Row[]) => void {
  const reading = driverReadingOf(client)
  return (table, rows) => rowNormalizer(map, table, reading)(rows)
}
