import knex, { type Knex } from 'knex'

/** A driver connection as far as running one setup statement goes (node-postgres, mysql2). */
interface SetupConnection {
  query(sql: string, done: (error: Error | null) => void): unknown
}

/**
 * A knex instance of one connection on `config`'s database whose session runs `setup` when it opens (`set jit = off`),
 * so that every statement of a comparison runs under that setting. Destroy it when done.
 */
export function sessionPool(config: Knex.Config, setup: string): Knex {
  return knex({
    ...config,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (connection: SetupConnection, done: (error: Error | null) => void) => connection.query(setup, done),
    },
  })
}
