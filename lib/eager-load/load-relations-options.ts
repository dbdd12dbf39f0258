import type { WithLimits } from '../validate/build-with-tree.ts'

/**
 * Options of `loadRelations`: the `with` limits, and the `context` the map's guards receive.
 *
 * @example
 * await loadRelations(db, 'users', users, ['posts'], relationMap, { context: { tenantId }, maxWithDepth: 2 })
 */
export interface LoadRelationsOptions<Context = unknown> extends Partial<WithLimits> {
  /** The value every table's `guard` receives as `context` (the caller's tenant, user…). */
  context?: Context
}
