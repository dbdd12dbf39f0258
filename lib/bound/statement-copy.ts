import type { Knex } from 'knex'

/**
 * A copy of `builder` that runs the same SQL as a plain knex builder: its own `toSQL` (a page rewrite) is
 * kept, its own `then` (eager loading) is not. It can be bound to a connection without changing `builder`.
 */
export function statementCopy(builder: Knex.QueryBuilder): Knex.QueryBuilder {
  const copy = builder.clone()
  const toSQL = Object.getOwnPropertyDescriptor(builder, 'toSQL')
  if (toSQL !== undefined) Object.defineProperty(copy, 'toSQL', toSQL)
  return copy
}
