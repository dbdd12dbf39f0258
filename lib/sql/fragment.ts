import type { Knex } from 'knex'

/** A piece of SQL text with its bindings in placeholder order, written once and never changed. */
export interface Fragment {
  readonly sql: string
  readonly bindings: readonly Knex.Value[]
}
