/** The operators a client may use in `wheres[i][operator]`. */
export const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like', 'in', 'notIn', 'between', 'notBetween'] as const

/** One operator of {@link OPERATORS}. */
export type Operator = (typeof OPERATORS)[number]

/** How a where is chained to the one before it. */
export type BooleanOperator = 'and' | 'or'

/** Sort direction of an order. */
export type Direction = 'asc' | 'desc'

/** A scalar a client sent: a string from the query string, or `null` (`wheres[0][value]` without `=`). */
export type ClientScalar = string | number | boolean | null

/**
 * One client condition, e.g. `wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25sql%25`.
 * `value` is a scalar, or a list for `in`, `notIn`, `between` and `notBetween`; `undefined` when the client
 * left it out (an empty `whereIn` list).
 */
export interface WhereDescription {
  column: string
  operator: Operator
  value?: ClientScalar | readonly ClientScalar[]
  boolean: BooleanOperator
}

/** One `orders[i]` entry. */
export interface Order {
  column: string
  direction: Direction
}

/**
 * The validated shape of a client's list query, as returned by `parseQueryParams`.
 * Every field is optional; names are camelCase whatever spelling the client sent.
 *
 * @example
 * const params: QueryParams = { wheres: [{ column: 'name', operator: 'like', value: 'a%', boolean: 'and' }], limit: 10 }
 */
export interface QueryParams {
  wheres?: WhereDescription[]
  columns?: string[]
  with?: string[]
  scopes?: string[]
  relationsExists?: string[]
  orders?: Order[]
  distinct?: string[]
  offset?: number
  limit?: number
  page?: number
  /** The search box's text, over the columns the table's `search` declares (see `SearchDefinition`); never blank. */
  search?: string
  /** The opaque position of a keyset page, read by `cursorPaginate` (see docs/cursor-pagination.md). */
  cursor?: string
}

/** The top-level keys of {@link QueryParams}. */
export type QueryParamKey = keyof QueryParams
