import type { DialectName } from './dialect-name.ts'
import type { UtcInstant } from '../values.ts'

/** A `like` test as SQL. */
export interface LikeSql {
  /** The test on `column` (already quoted), with `?` for the client's pattern after {@link pattern}. */
  sql(column: string): string
  pattern(value: string): string
  /** How many `?` {@link sql} holds, each bound to the same pattern; 1 when not given. */
  readonly placeholders?: number
}

/**
 * SQL syntax: how a condition, a value, a page or a join is spelled on this database (read by `sql/`, `apply/`,
 * `eager-load/`).
 * Part of `Dialect`; `Name` narrows what a database cannot honour.
 */
export interface DialectSyntax<Name extends DialectName = DialectName> {
  readonly name: Name
  /**
   * A case-insensitive `like`. In the client's pattern `%` and `_` are wildcards and a backslash
   * escapes the next character (`\%` is a literal `%`), on every database.
   */
  readonly likeInsensitive: LikeSql
  /** A case-sensitive `like`, with the same pattern rules. */
  readonly likeSensitive: LikeSql
  /**
   * Whether NULLs sort as the largest values (PostgreSQL). The library orders NULLs as the smallest on
   * every database (first ascending, last descending), so such a dialect gets explicit `nulls first/last`.
   */
  readonly nullsSortLargest: boolean
  /**
   * The placeholder (holding one `?`) binding an integer outside the 16-bit range, or `undefined` where such
   * integers bind plainly.
   * PostgreSQL types a bare parameter after the column it meets, so `int4_column < 3000000000` and
   * `smallint_column < 40000` are database errors there unless the value is cast (`?::bigint`, which the
   * integer index still serves).
   */
  readonly wideInteger?: string
  /**
   * The placeholder (holding one `?`) binding a number a single-precision float cannot hold (`3.5e38`, `1e-46`),
   * or `undefined` where such numbers bind plainly. PostgreSQL types the parameter after a `real` column and
   * refuses it; cast to `float8`, it is compared exactly (the `real` index still serves it).
   */
  readonly wideNumber?: string
  /**
   * How a test reads a `string` column that is not plain text (an enum declared with `values`, a `CHAR(n)` declared
   * `padded`), by use: `equal` (`=`, `!=`, `in`), `compare` (`<`, `between`…) or `like`; `undefined` where the column
   * itself already compares as text. PostgreSQL has no `like` on an enum and compares it in declaration order, and
   * its `like` on `char(n)` sees the padding; SQLite keeps whatever spaces were written.
   */
  readonly textColumn?: (column: string, kind: 'enum' | 'padded', use: 'equal' | 'compare' | 'like') => string
  /**
   * Whether the page's `limit` and `offset` (integers the library validated) are written into the SQL rather than
   * bound (knex's `skipBinding`). SQLite runs a page 17 µs faster with `limit 20` than with `limit ?` (49.5
   * against 66.9 µs for a 20-row page read by index from 1M posts, 4,000 interleaved runs; the same for a
   * hand-written form): on a page of 0.05–0.1 ms that is ×1.2–1.35. PostgreSQL plans an unnamed statement with the
   * bound values and mysql2 interpolates them, so they stay bound there.
   */
  readonly inlinePage: boolean
  /** A boolean as this database binds it. */
  bindBoolean(value: boolean): boolean | number
  /** A datetime (UTC instant) as this database compares it (on SQLite, in the column's declared storage). */
  bindDatetime(value: UtcInstant): string | number
  /**
   * The placeholders (holding one `?`) binding the exact text of a `bigint` and a `decimal` value so that the
   * database compares it exactly, or `undefined` where a bare text parameter already is. MySQL compares an
   * integer or decimal column with a text parameter as doubles (`9007199254740993` would equal `…992`).
   */
  readonly exactNumber?: { bigint: string; decimal: string }
  /**
   * How a deferred page (see {@link deferredPageOffset}) joins the base table back to the page's keys:
   * `cross join … on`, which SQLite keeps in the written order (the keys first) and MySQL/MariaDB read as an
   * inner join, or `inner join` where `cross join … on` is a syntax error (PostgreSQL).
   */
  readonly deferredPageJoin: 'cross join' | 'inner join'
  /**
   * The join an order cutoff (see {@link cutoffJoinedOrder}) walks from the ordered table back to the base table
   * with, keeping the ordered table first: `straight_join` (MySQL/MariaDB), `cross join` (SQLite), or `inner join`
   * where the database has no such hint (PostgreSQL).
   */
  readonly orderedJoin: 'straight_join' | 'cross join' | 'inner join'
}
