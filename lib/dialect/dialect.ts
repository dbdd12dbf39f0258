/** What the library needs to know about a database: the differences, as data and small functions. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres' | 'mysql'
  /** How many values one `IN (…)` list may bind, safely below the driver's bind-parameter limit. */
  readonly maxInBindings: number
  /** SQL operator for a case-insensitive `like`. */
  readonly likeInsensitive: string
  /** A case-sensitive `like` as raw SQL: `??` is the qualified column, `?` the pattern made by `pattern`. */
  readonly likeSensitive: { readonly sql: string; pattern(value: string): string }
  /**
   * Whether NULLs sort as the largest values (PostgreSQL). The library orders NULLs as the smallest on
   * every database (first ascending, last descending), so such a dialect gets explicit `nulls first/last`.
   */
  readonly nullsSortLargest: boolean
  /** A boolean as this database binds it. */
  bindBoolean(value: boolean): boolean | number
  /** A datetime (UTC instant) as this database compares it. */
  bindDatetime(value: Date): string
}
