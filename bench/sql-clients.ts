import knex, { type Knex } from 'knex'

/** Knex instances without a connection, for building and compiling SQL only. */
export const sqlClients: Record<'sqlite' | 'postgres', Knex> = {
  sqlite: knex({ client: 'better-sqlite3', useNullAsDefault: true }),
  postgres: knex({ client: 'pg' }),
}
