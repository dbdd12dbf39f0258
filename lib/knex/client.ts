import type { Knex } from 'knex'

/**
 * What the library reads from a knex client and asks of it beyond building queries: its configuration and
 * driver, identifier quoting, connections taken from its pool, transactions. Part of the knex boundary (see
 * `lib/knex/`): each behaviour relied on here is pinned by `spec/knex/knex-behaviours.spec.ts`.
 */

interface ClientInternals {
  config?: Knex.Config
  driverName?: unknown
  driver?: unknown
  connectionSettings?: unknown
  transacting?: boolean
  wrapIdentifier(value: string, queryContext: unknown): string
  alias(first: string, second: string): string
  acquireConnection(): Promise<unknown>
  releaseConnection(connection: unknown): Promise<unknown>
  acquireRawConnection(): Promise<unknown>
  destroyRawConnection(connection: unknown): Promise<void>
  transaction(
    container: (trx: Knex.Transaction) => unknown,
    config: Knex.TransactionConfig | undefined,
    outerTx: null,
  ): unknown
}

const internals = (client: Knex.Client): ClientInternals => client as unknown as ClientInternals

const isKnexClient = (value: unknown): value is Knex.Client =>
  typeof value === 'object' && value !== null && 'queryBuilder' in value && typeof value.queryBuilder === 'function'

/**
 * The client behind a knex instance or transaction (or the client itself). Builders made from it run on the
 * same pool, or on the transaction's connection.
 */
export function knexClientOf(source: Knex | Knex.Client): Knex.Client {
  const client: unknown = typeof source === 'function' ? source.client : source
  if (!isKnexClient(client)) throw new Error('knex-query-params: expected a knex instance, transaction or client')
  return client
}

/** The configuration the client's knex instance was made with (the same object for its transactions). */
export function knexConfigOf(client: Knex.Client): Knex.Config | undefined {
  return internals(client).config
}

/** The driver of a client: its package name (`'pg'`), the loaded module, and the connection settings knex passes it. */
export interface ClientDriver {
  readonly name: unknown
  readonly module: unknown
  readonly connectionSettings: unknown
}

/** The {@link ClientDriver} of `client`. */
export function driverOf(client: Knex.Client): ClientDriver {
  const { driverName, driver, connectionSettings } = internals(client)
  return { name: driverName, module: driver, connectionSettings }
}

/** Identifier quoting as the client does it, the configuration's `wrapIdentifier` hook included. */
export interface IdentifierQuoting {
  /** Whether the configuration has a `wrapIdentifier` hook (whose result may depend on the query context). */
  readonly hooked: boolean
  /** One identifier quoted: `posts` → `"posts"`. */
  wrap(value: string, queryContext: unknown): string
  /** `first as second`, both already quoted, as the dialect writes an alias. */
  alias(first: string, second: string): string
}

/** The {@link IdentifierQuoting} of `client`. */
export function identifierQuotingOf(client: Knex.Client): IdentifierQuoting {
  const own = internals(client)
  return {
    hooked: own.config?.wrapIdentifier !== undefined,
    wrap: (value, queryContext) => own.wrapIdentifier(value, queryContext),
    alias: (first, second) => own.alias(first, second),
  }
}

/** Whether `client` is a transaction's client (its builders run on the transaction's connection). */
export function inTransaction(client: Knex.Client): boolean {
  return internals(client).transacting === true
}

/**
 * Runs `handler` in a new transaction of `client` (`config`: isolation level, read only) and resolves to its
 * result once committed; rejects (after the rollback) with its error.
 */
export function runInTransaction<T>(
  client: Knex.Client,
  handler: (trx: Knex.Transaction) => Promise<T>,
  config: Knex.TransactionConfig | undefined,
): Promise<T> {
  // A knex Transaction is thenable: it settles with the handler's result once committed (or rolled back).
  return Promise.resolve(internals(client).transaction(handler, config, null) as PromiseLike<T>)
}

/**
 * A connection of the client's pool (or the transaction's connection), for `builder.connection(…)`; give it back with
 * {@link releaseConnection}.
 */
export function acquireConnection(client: Knex.Client): Promise<unknown> {
  return internals(client).acquireConnection()
}

/** Gives a connection from {@link acquireConnection} back to the pool. */
export async function releaseConnection(client: Knex.Client, connection: unknown): Promise<void> {
  await internals(client).releaseConnection(connection)
}

/**
 * Gives back a connection from {@link acquireConnection} whose session is gone (`reason`: what failed on it), marked
 * as knex marks a connection whose driver reported an error or its end, so that the pool destroys it instead of
 * handing it out again. The driver tells the end of a killed session some time after the failed query: until then
 * the pool's check passed it, and the next read on it failed as well.
 */
export async function discardConnection(client: Knex.Client, connection: unknown, reason: unknown): Promise<void> {
  if (typeof connection === 'object' && connection !== null) {
    const marked = connection as { __knex__disposed?: unknown }
    marked.__knex__disposed ??= reason
  }
  await releaseConnection(client, connection)
}

/**
 * A new driver connection outside the pool, configured as the pool's are; close it with {@link destroyRawConnection}.
 */
export function acquireRawConnection(client: Knex.Client): Promise<unknown> {
  return internals(client).acquireRawConnection()
}

/** Closes a connection from {@link acquireRawConnection}. */
export function destroyRawConnection(client: Knex.Client, connection: unknown): Promise<void> {
  return internals(client).destroyRawConnection(connection)
}
