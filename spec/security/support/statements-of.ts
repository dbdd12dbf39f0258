import type { Knex } from 'knex'

/** One statement knex sent to the database. */
export interface Statement {
  sql: string
  bindings: readonly unknown[]
}

const isStatement = (value: unknown): value is { sql: string; bindings?: unknown } =>
  typeof value === 'object' && value !== null && 'sql' in value && typeof value.sql === 'string'

/**
 * Runs `run` and returns what it resolved to (or threw) with every statement knex sent meanwhile.
 *
 * @example
 * const { statements, error } = await statementsOf(db.knex, () => applyQuery(db, 'users', query))
 */
export async function statementsOf(
  knex: Knex,
  run: () => unknown,
): Promise<{ result?: unknown; error?: unknown; statements: Statement[] }> {
  const statements: Statement[] = []
  const listener = (event: unknown): void => {
    if (isStatement(event))
      statements.push({ sql: event.sql, bindings: Array.isArray(event.bindings) ? (event.bindings as unknown[]) : [] })
  }
  knex.on('query', listener)
  try {
    return { result: await Promise.resolve().then(run), statements }
  } catch (error) {
    return { error, statements }
  } finally {
    knex.off('query', listener)
  }
}
