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

/** Access to a builder's recorded statements: the one place that relies on knex internals. */
export function internalsOf(builder: Knex.QueryBuilder): KnexInternals {
  return builder as unknown as KnexInternals
}
