/** A `like` test as raw SQL: `??` is the qualified column, `?` the client's pattern after `pattern`. */
export interface LikeSql {
  readonly sql: string
  /**
   * The operator, when `sql` is just `?? <operator> ?`: knex then compiles the test as an ordinary where,
   * which is much cheaper than raw SQL (the same SQL either way).
   */
  readonly operator?: string
  pattern(value: string): string
}

/** What the library needs to know about a database: the differences, as data and small functions. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql'
  /** How many values one `IN (…)` list may bind, safely below the driver's bind-parameter limit. */
  readonly maxInBindings: number
  /**
   * A case-insensitive `like` as raw SQL. In the client's pattern `%` and `_` are wildcards and a backslash
   * escapes the next character (`\%` is a literal `%`), on every database.
   */
  readonly likeInsensitive: LikeSql
  /** A case-sensitive `like` as raw SQL, with the same pattern rules. */
  readonly likeSensitive: LikeSql
  /**
   * Whether NULLs sort as the largest values (PostgreSQL). The library orders NULLs as the smallest on
   * every database (first ascending, last descending), so such a dialect gets explicit `nulls first/last`.
   */
  readonly nullsSortLargest: boolean
  /**
   * Raw SQL binding an integer outside the 32-bit range, or `undefined` where such integers bind plainly.
   * PostgreSQL types a bare parameter after the column it meets, so `int4_column < 3000000000` is a
   * database error there unless the value is cast (`?::bigint`).
   */
  readonly wideInteger?: string
  /** A boolean as this database binds it. */
  bindBoolean(value: boolean): boolean | number
  /** A datetime (UTC instant) as this database compares it. */
  bindDatetime(value: Date): string
}
