import type { Knex } from 'knex'
import { knexConfigOf, knexDialectNameOf } from '../knex/client.ts'
import type { Dialect } from './dialect.ts'
import { mysql } from './mysql.ts'
import { postgres } from './postgres.ts'
import { sqlite } from './sqlite.ts'

const byKnexDialect: Record<string, Dialect> = {
  sqlite3: sqlite,
  'better-sqlite3': sqlite,
  postgresql: postgres,
  postgres,
  pg: postgres,
  pglite: postgres,
  mysql,
  mysql2: mysql,
}

/** The {@link Dialect} of a knex client; the only place that reads the client's name. */
export function dialectOf(client: Knex.Client): Dialect {
  const name = String(knexDialectNameOf(client) ?? knexConfigOf(client)?.client ?? '')
  const dialect = byKnexDialect[name]
  if (dialect === undefined) {
    throw new Error(`knex-query-params: unsupported knex dialect '${name}' (supported: sqlite3, postgresql, mysql)`)
  }
  return dialect
}
