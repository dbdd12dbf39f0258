import type { Knex } from 'knex'

/** One recorded statement of a knex builder (knex's own internal shape). */
export interface KnexStatement {
  grouping: string
  type?: string
  bool?: string
  value?: unknown
  not?: boolean
}

/** The parts of a knex builder's internal state this library reads; knex's typings do not expose them. */
export interface KnexInternals {
  _statements: KnexStatement[]
  _single: { table?: unknown }
  _method?: string
}

/** The parts of a knex client the library uses to quote identifiers as knex would. */
export interface ClientInternals {
  config: { wrapIdentifier?: unknown }
  wrapIdentifier(value: string, queryContext: unknown): string
  alias(first: string, second: string): string
}

/** Access to a builder's recorded statements: the one place that relies on knex internals. */
export function internalsOf(builder: Knex.QueryBuilder): KnexInternals {
  return builder as unknown as KnexInternals
}

/** Access to the identifier quoting of a builder's client. */
export function clientInternalsOf(client: Knex.Client): ClientInternals {
  return client as unknown as ClientInternals
}
