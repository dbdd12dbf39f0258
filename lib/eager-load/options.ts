import type { StatementBound } from '../bound/statement-bound.ts'
import type { RowGuards } from '../guard/row-guards.ts'
import type { RowBudget } from './row-budget.ts'
import type { DialectPlanner } from '../dialect/dialect-planner.ts'
import type { Row } from '../normalize/row-values.ts'
import type { BoundOptions } from '../bound/bound-options.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import type { RowValues } from '../normalize/row-values.ts'
import type { WithLimits } from '../validate/build-with-tree.ts'

/**
 * What every eager-load query of one request shares: its chunk size, guards, row budget, and the dialect's NULL
 * ordering and top-N form.
 */
export interface EagerBatchSettings {
  /** Most key values in one `IN (…)` list. */
  chunkSize: number
  guards?: RowGuards
  /** The rows the request may still load (`maxEagerRows`). */
  budget: RowBudget
  /** The dialect's `nullsSortLargest`: whether a top-N order needs `nulls first/last`. */
  nullsSortLargest: boolean
  /** The dialect's planner choices that eager loading reads (how a top N per parent is written). */
  planner: Pick<DialectPlanner, 'topPerParent'>
  /** The schema of every table named without one (the main query's `withSchema`). */
  schema?: string
  /** The request's time and signal; every batch runs within it (see `runBounded`). */
  bound?: StatementBound
  /**
   * Whether the rows are normalized afterwards, so their statements may ask the driver for JSON-ready values (see
   * `jsonReadOptions`).
   */
  json?: boolean
}

/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default `MAX_IN_BINDINGS` (30,000). */
  chunkSize?: number
  /** The row guards each loaded table must meet (see {@link RowGuards}). */
  guards?: RowGuards
  /**
   * Rewrites each loaded batch of rows of a table into JSON values, once nested loading is done (see `rowNormalizer`).
   */
  normalize?: (table: string, rows: Row[]) => void
  /**
   * The rows the whole tree may load, over every relation and level; shared by the nested calls.
   * Default a budget of `maxEagerRows` (10,000) of its own.
   */
  budget?: RowBudget
  /** The request's time and signal; every batch runs within it (see `runBounded`). */
  bound?: StatementBound
  /**
   * The schema of every loaded table named without one, as the main query's `withSchema('analytics')` gives it;
   * default none (the connection's search path).
   */
  schema?: string
}

/**
 * Options of `loadRelations`: the `with` limits, the row budget, the `context` the map's guards receive, and
 * the `timeout`/`signal` bounding the batches' database time (see `BoundOptions`).
 *
 * @example
 * await loadRelations(db, 'users', users, ['posts'], relationMap, { context: { tenantId }, maxWithDepth: 2, maxEagerRows: 5000, timeout: 2000 })
 */
export interface LoadRelationsOptions<Context = unknown> extends Partial<WithLimits>, BoundOptions, DialectOptions {
  /** The value every table's `guard` receives as `context` (the caller's tenant, user…). */
  context?: Context
  /** `'json'` (default) or `'driver'`: the values the rows carry, as `ApplyOptions.values` says. */
  values?: RowValues
  /**
   * Most related rows this call may load, over every path and level; default 10,000 (as `applyQueryParams`'s
   * `maxEagerRows`). Past it, a `limit_exceeded` error names the path, after at most this many rows were loaded.
   */
  maxEagerRows?: number
  /**
   * The schema of every table named without one, for rows read from `db('reports').withSchema('analytics')`: the
   * related tables, their guards' subqueries and the aggregates are read there too. Default none (the
   * connection's search path).
   */
  schema?: string
}
