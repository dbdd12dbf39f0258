import { QueryParamsError } from '../errors/query-params-error.ts'

/**
 * `limit_exceeded` when a relation path (of a `wheres` column, a `relationsExists` entry or an `orders`
 * column) goes through more than `max` relations: each is one more nested subquery, and deep nesting
 * makes a database slow (a to-many hop multiplies the work) or refuse the query (MySQL's 61-table join
 * limit, SQLite's expression depth).
 */
export function checkRelationDepth(relations: number, max: number, param: string): void {
  if (relations > max) {
    throw new QueryParamsError(`Parameter '${param}' goes through more than ${max} relations.`, { code: 'limit_exceeded', param })
  }
}
