import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'

/** The databases the `explain` CLI names: `--client pg|mysql|sqlite`. */
export type ClientName = 'pg' | 'mysql' | 'sqlite'

/** Every {@link ClientName}, in the order the CLI prints them. */
export const CLIENT_NAMES: readonly ClientName[] = ['pg', 'mysql', 'sqlite']

/** What each dialect is called in output. */
export const DIALECT_LABELS: Readonly<Record<Dialect['name'], string>> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL / MariaDB',
  sqlite: 'SQLite',
}

/** What each {@link ClientName} is called in output. */
export const CLIENT_LABELS: Readonly<Record<ClientName, string>> = {
  pg: DIALECT_LABELS.postgres,
  mysql: DIALECT_LABELS.mysql,
  sqlite: DIALECT_LABELS.sqlite,
}

const KNEX_CLIENTS: Readonly<Record<ClientName, string>> = { pg: 'pg', mysql: 'mysql2', sqlite: 'better-sqlite3' }

/** A knex configuration that only compiles SQL for `name`: no connection, no driver loaded. */
export function compileOnlyConfig(name: ClientName): Knex.Config {
  return name === 'sqlite' ? { client: KNEX_CLIENTS.sqlite, useNullAsDefault: true } : { client: KNEX_CLIENTS[name] }
}

/**
 * The database a URL names: `postgres://` or `postgresql://`, `mysql://` or `mariadb://`, and for
 * SQLite `sqlite:<path>`, `file:<path>` or a path ending in `.sqlite`, `.sqlite3` or `.db`.
 */
export function clientOfUrl(url: string): ClientName | undefined {
  if (/^postgres(ql)?:\/\//i.test(url)) return 'pg'
  if (/^(mysql|mariadb):\/\//i.test(url)) return 'mysql'
  if (/^(sqlite|file):/i.test(url) || /\.(sqlite3?|db)$/i.test(url)) return 'sqlite'
  return undefined
}

/**
 * A knex configuration for the database at `url` (see {@link clientOfUrl}) that opens SQLite files
 * read-only, and never creates one. PostgreSQL and MySQL are kept read-only by the caller's transaction.
 */
export function readOnlyConfig(url: string): Knex.Config {
  const name = clientOfUrl(url)
  if (name === 'sqlite') {
    const filename = url.replace(/^(sqlite|file):(\/\/)?/i, '')
    return {
      client: KNEX_CLIENTS.sqlite,
      connection: { filename, options: { readonly: true } },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    }
  }
  if (name === 'mysql')
    return { client: KNEX_CLIENTS.mysql, connection: url.replace(/^mariadb:/i, 'mysql:'), pool: { min: 1, max: 1 } }
  if (name === 'pg') return { client: KNEX_CLIENTS.pg, connection: url, pool: { min: 1, max: 1 } }
  throw new Error(
    `Unknown database URL '${url}': expected postgres://…, mysql://…, or a SQLite file (sqlite:path, *.sqlite, *.db).`,
  )
}
