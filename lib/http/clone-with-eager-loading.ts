import type { Knex } from 'knex'
import { BOUNDED_RUN } from '../bound/bounded-run.ts'
import { statementCopy } from '../bound/statement-copy.ts'

/**
 * A `.clone()` that keeps what awaiting the original does. A builder from `applyQueryParams` already clones
 * its row reading (eager loading, normalizing); this also keeps its page rewrite (deferred join, order cutoff:
 * an own `toSQL`, see `statementCopy`) and how it runs within a time bound, so the clone still resolves to the
 * same rows with their relations.
 */
export function cloneWithEagerLoading(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const clone = statementCopy(builder)
  const bounded = Object.getOwnPropertyDescriptor(builder, BOUNDED_RUN)
  if (bounded !== undefined) Object.defineProperty(clone, BOUNDED_RUN, bounded)
  return clone
}
