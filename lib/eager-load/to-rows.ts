import type { Row } from '../normalize/row-values.ts'

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Narrows a query result to its rows; throws if the driver returned something else. */
export function toRows(result: unknown): Row[] {
  if (!Array.isArray(result) || !result.every(isRow)) {
    throw new Error('knex-query-params: an eager-load query did not return a list of rows')
  }
  return result
}
