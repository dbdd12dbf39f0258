import type { BoundOptions } from './bound/bound-options.ts'
import type { DialectOptions } from './dialect/dialect-options.ts'
import type { RowValues } from './normalize/row-values.ts'

/** Options of `parseQueryParams`. */
export interface ParseOptions {
  /** Reject top-level keys that are not query parameters (`unknown_parameter`); default `false`. */
  strict?: boolean
  /** Most `wheres` entries; default 100. */
  maxWheres?: number
  /** Most values in one `in`/`notIn` list; default 1000. */
  maxInValues?: number
  /** Longest string value in characters; default 1000. */
  maxValueLength?: number
  /** Most bracket levels in one key (qs `depth`); default 5. */
  depth?: number
  /**
   * Most `key=value` pairs in one query string (qs `parameterLimit`), or values in an already-parsed object;
   * default 2000: room for one `in` list at `maxInValues` plus every other list at its cap.
   */
  parameterLimit?: number
  /**
   * Most entries in each of `orders`, `columns`, `distinct` and `scopes`; default 50 (`with` and `relationsExists` have
   * caps of their own).
   */
  maxListItems?: number
  /** Most wildcards (`%` and `_` not escaped by a backslash) in one `like` value; default 10. */
  maxLikeWildcards?: number
  /** Longest `search` text in characters; default 200. */
  maxSearchLength?: number
  /** Most words (a double-quoted phrase counts as one) in a `search` text; default 10. */
  maxSearchWords?: number
}

/**
 * Options of `applyQueryParams`; `Context` is the type of `context`, which the map's guards receive.
 * `timeout` and `signal` bound the database time of awaiting the builder (see {@link BoundOptions}).
 */
export interface ApplyOptions<Context = unknown> extends BoundOptions, DialectOptions {
  /** The base table, when it cannot be read from the builder. */
  table?: string
  /** The value every table's `guard` receives as `context` (the caller's tenant, user…). */
  context?: Context
  /** Page size when `page` comes without `limit`; default 15. */
  defaultLimit?: number
  /** Largest `limit` a client may ask for; default 1000. */
  maxLimit?: number
  /** `like` matching: `'insensitive'` (default, on every database) or `'sensitive'`. */
  like?: 'insensitive' | 'sensitive'
  /** Deepest `with` path, in relations; default 3. */
  maxWithDepth?: number
  /** Most `with` entries; default 20. */
  maxWith?: number
  /** Most relations in one path of a `wheres` column, a `relationsExists` entry or an `orders` column; default 5. */
  maxRelationDepth?: number
  /**
   * Most relation conditions in one query: `wheres` on a `relation.column` plus `relationsExists` entries; default 10.
   */
  maxRelationFilters?: number
  /** Most `orders` entries through a relation (`team.name`, `avatar.url`); default 3. */
  maxRelationOrders?: number
  /**
   * The values rows carry: `'json'` (default), each allow-listed column as the JSON value of its declared type,
   * the same on every database and in every time zone (eager-loaded rows included); `'driver'`, as the driver
   * returns them. Columns the caller selects beyond the map are always left as the driver returns them.
   */
  values?: RowValues
  /**
   * Most rows one request's eager loading may load, over every `with` relation, level and `*` expansion;
   * default 10,000. Each eager-load query asks the database for at most the rows left plus one, so a request
   * past it is a `limit_exceeded` error (naming its `with` entry) found after loading at most this many rows:
   * memory stays bounded by this budget, not by the data.
   */
  maxEagerRows?: number
  /**
   * How long, in ms, the form of a frequency-guarded page is remembered for the same filter value, per knex
   * instance (1,000 values at most); default 60,000. Such a page (an ordered, limited page with one relation filter
   * by equality on a `unique` column) is read in two statements: a probe of how many rows the value has (an index
   * read of at most 1,000 entries, 5,000 on PostgreSQL), then the page in the form that is fast for that many. Within
   * this time the
   * same value sends only the page. Reads the rows of the plain query either way; `0` probes on every read. The
   * same memo holds the choice of a MariaDB page ordered through joined hops (`Dialect.cutoffListGuard`).
   */
  frequencyMemoMs?: number
}

/** Defaults of {@link ParseOptions}. */
export const PARSE_DEFAULTS: Required<ParseOptions> = {
  strict: false,
  maxWheres: 100,
  maxInValues: 1000,
  maxValueLength: 1000,
  depth: 5,
  parameterLimit: 2000,
  maxListItems: 50,
  maxLikeWildcards: 10,
  maxSearchLength: 200,
  maxSearchWords: 10,
}

/** Defaults of {@link ApplyOptions} (all but `table`, `context`, `dialect`, `timeout` and `signal`). */
export const APPLY_DEFAULTS: Required<
  Omit<ApplyOptions, 'table' | 'context' | keyof BoundOptions | keyof DialectOptions>
> = {
  defaultLimit: 15,
  maxLimit: 1000,
  like: 'insensitive',
  maxWithDepth: 3,
  maxWith: 20,
  maxRelationDepth: 5,
  maxRelationFilters: 10,
  maxRelationOrders: 3,
  values: 'json',
  maxEagerRows: 10_000,
  frequencyMemoMs: 60_000,
}

/**
 * `defaults` with the options that are set (an `undefined` option keeps its default). With no option set
 * it is `defaults` itself, so the common call allocates nothing.
 */
export function withDefaults<T extends object>(defaults: Readonly<T>, options: Partial<T>): Readonly<T> {
  let merged: T | undefined
  for (const key in options) {
    const value = options[key]
    if (value === undefined) continue
    merged ??= { ...defaults }
    merged[key] = value
  }
  return merged ?? defaults
}
