import type { BoundOptions } from '../bound/bound-options.ts'
import type { WithLimits } from '../validate/build-with-tree.ts'

/**
 * Options of `loadRelations`: the `with` limits, the `context` the map's guards receive, and the
 * `timeout`/`signal` bounding the batches' database time (see `BoundOptions`).
 *
 * @example
 * await loadRelations(db, 'users', users, ['posts'], relationMap, { context: { tenantId }, maxWithDepth: 2, timeout: 2000 })
 */
export interface LoadRelationsOptions<Context = unknown> extends Partial<WithLimits>, BoundOptions {
  /** The value every table's `guard` receives as `context` (the caller's tenant, user…). */
  context?: Context
}
