import type { Knex } from 'knex'
import { boundedRunOf, carryBoundedRun } from '../apply/read-state.ts'
import { statementCopy } from '../knex/builder-methods.ts'

/**
 * A `.clone()` that keeps what awaiting the original does. A builder from `applyQueryParams` already clones
 * its row reading (eager loading, normalizing); this also keeps its page rewrite (deferred join, order cutoff:
 * an own `toSQL`, see `statementCopy`) and how it runs within a time bound, so the clone still resolves to the
 * same rows with their relations.
 */
export function cloneWithEagerLoading(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const clone = statementCopy(builder)
  carryBoundedRun(clone, boundedRunOf(builder))
  return clone
}
