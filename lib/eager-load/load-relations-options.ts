import type { BoundOptions } from '../bound/bound-options.ts'
import type { DialectOptions } from '../dialect/dialect-options.ts'
import type { RowValues } from '../normalize/row-values.ts'
import type { WithLimits } from '../validate/build-with-tree.ts'

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
}
