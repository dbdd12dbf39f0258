import type { Knex } from 'knex'

const isKnexClient = (value: unknown): value is Knex.Client =>
  typeof value === 'object' && value !== null && 'queryBuilder' in value && typeof value.queryBuilder === 'function'

/**
 * The client behind a knex instance or transaction (or the client itself). Builders made from it
 * run on the same pool, or on the transaction's connection.
 */
export function knexClientOf(source: Knex | Knex.Client): Knex.Client {
  const client: unknown = typeof source === 'function' ? source.client : source
  if (!isKnexClient(client)) throw new Error('knex-query-params: expected a knex instance, transaction or client')
  return client
}
