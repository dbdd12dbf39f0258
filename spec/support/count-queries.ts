import type { Knex } from 'knex'

/** One statement knex ran, as its `query` event reports it. */
export interface QueryEvent {
  sql: string
  bindings?: readonly unknown[]
}

const isQueryEvent = (value: unknown): value is QueryEvent =>
  typeof value === 'object' && value !== null && 'sql' in value && typeof value.sql === 'string'

/**
 * Runs `run` and returns its result with every statement knex issued meanwhile (from knex's `query`
 * event; transaction control statements left out).
 *
 * @example
 * const { result, queries } = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts'))
 */
export async function countQueries<T>(
  knex: Knex,
  run: () => PromiseLike<T>,
): Promise<{ result: T; queries: QueryEvent[] }> {
  const queries: QueryEvent[] = []
  const listener = (event: unknown): void => {
    if (isQueryEvent(event) && !/^(begin|commit|rollback)\b/i.test(event.sql.trim())) queries.push(event)
  }
  knex.on('query', listener)
  try {
    return { result: await run(), queries }
  } finally {
    knex.off('query', listener)
  }
}
