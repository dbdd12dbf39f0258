import type { Knex } from 'knex'
import { BOUNDED_RUN } from '../bound/bounded-run.ts'

/**
 * A `.clone()` that keeps what awaiting the original does. `applyQueryParams` attaches eager loading as
 * the builder's own `then`, and a page rewrite (deferred join, order cutoff) as its own `toSQL`, which knex's
 * `clone()` does not copy; this copies both (and how it runs within a time bound), so the clone still resolves to the same rows with their relations.
 */
export function cloneWithEagerLoading(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const clone = builder.clone()
  for (const name of ['then', 'toSQL', BOUNDED_RUN]) {
    const own = Object.getOwnPropertyDescriptor(builder, name)
    if (own !== undefined) Object.defineProperty(clone, name, own)
  }
  return clone
}
