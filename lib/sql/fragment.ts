import type { Knex } from 'knex'

/** A piece of SQL text with its bindings in placeholder order, written once and never changed. */
export interface Fragment {
  readonly sql: string
  readonly bindings: readonly Knex.Value[]
}

/** How many placeholders (`?`) `sql` holds: the SQL this library writes has no other question mark. */
export function placeholdersIn(sql: string): number {
  return sql.split('?').length - 1
}
