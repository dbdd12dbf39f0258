import type { Knex } from 'knex'

/**
 * A `.clone()` that keeps what awaiting the original does. `applyQueryParams` attaches eager loading as
 * the builder's own `then`, which knex's `clone()` does not copy; this copies it, so the clone still
 * resolves to rows with their relations.
 */
export function cloneWithEagerLoading(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const clone = builder.clone()
  const then = Object.getOwnPropertyDescriptor(builder, 'then')
  if (then !== undefined) Object.defineProperty(clone, 'then', then)
  return clone
}
