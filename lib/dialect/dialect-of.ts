import type { Knex } from 'knex'
import { knexConfigOf } from '../knex/client.ts'
import type { Dialect, DialectName } from './dialect.ts'
import { mysql } from './mysql.ts'
import { postgres } from './postgres.ts'
import { sqlite } from './sqlite.ts'

/** The class name of knex-pglite's client, which knex is given instead of a client name. */
export const PGLITE_CLIENT = 'ClientPGLiteImpl'

const DIALECTS: Readonly<Record<DialectName, Dialect>> = { postgres, mysql, sqlite }

/** Every {@link DialectName}, as the `dialect` option and `--dialect` take them. */
export const DIALECT_NAMES: readonly DialectName[] = ['postgres', 'mysql', 'sqlite']

/** The knex clients the library knows, by the name knex is configured with. */
const LISTED = new Map<string, DialectName>([
  ['pg', 'postgres'],
  ['postgres', 'postgres'],
  ['postgresql', 'postgres'],
  [PGLITE_CLIENT, 'postgres'],
  ['sqlite3', 'sqlite'],
  ['sqlite', 'sqlite'],
  ['better-sqlite3', 'sqlite'],
  ['mysql', 'mysql'],
  ['mysql2', 'mysql'],
])

const LISTED_TEXT = 'pg, postgres, postgresql, knex-pglite, sqlite3, sqlite, better-sqlite3, mysql, mysql2'

/** Dialects declared with the `dialect` option, by knex configuration (shared by an instance and its transactions). */
const declared = new WeakMap<object, Dialect>()

/** The name knex was configured with: its `client` string, or the name of the client class it was given. */
export function knexClientName(client: Knex.Client): string {
  const configured: unknown = knexConfigOf(client)?.client
  if (typeof configured === 'string') return configured
  if (typeof configured === 'function') return configured.name
  return typeof client.constructor === 'function' ? client.constructor.name : String(configured)
}

const declarationKey = (client: Knex.Client): object => knexConfigOf(client) ?? client

/**
 * The {@link Dialect} of a knex client: the one declared for it (`declared`, the `dialect` option of the call,
 * or an earlier call's on the same knex instance), else the one of the knex client it is configured with. Only
 * the clients listed here are known: `cockroachdb`, `pgnative`, `mariadb`, `redshift` or a client class of
 * another package speak a database's SQL with differences of their own, so their user declares the dialect
 * knowingly. The only place that reads the client's name.
 *
 * @throws {Error} for a client not listed and never declared, naming the `dialect` option; for a declaration
 * that contradicts the client (`dialect: 'mysql'` on `pg`) or an earlier declaration.
 * @example
 * dialectOf(knex({ client: 'cockroachdb' }).client, 'postgres').name // 'postgres'
 */
export function dialectOf(client: Knex.Client, name?: DialectName): Dialect {
  if (name !== undefined) return declare(client, name)
  const dialect = declared.get(declarationKey(client)) ?? listedDialect(client)
  if (dialect === undefined) {
    throw new Error(
      `knex-query-params: the knex client '${knexClientName(client)}' is not one the library knows (${LISTED_TEXT}). ` +
        "If the database speaks the SQL of one of them, declare it with the option dialect: 'postgres', 'mysql' or 'sqlite' " +
        '(of applyQueryParams, loadRelations, paginate and the introspection functions; --dialect for the CLI).',
    )
  }
  return dialect
}

/**
 * Makes `client` (its knex instance and transactions) use `dialect` whatever its name: a listed dialect with a
 * flag changed, as the tests that run every flag on every database do. Not part of the package's API.
 */
export function useDialect(client: Knex.Client, dialect: Dialect): void {
  declared.set(declarationKey(client), dialect)
}

function listedDialect(client: Knex.Client): Dialect | undefined {
  const name = LISTED.get(knexClientName(client))
  return name === undefined ? undefined : DIALECTS[name]
}

function declare(client: Knex.Client, name: DialectName): Dialect {
  const dialect: Dialect | undefined = Object.hasOwn(DIALECTS, name) ? DIALECTS[name] : undefined
  if (dialect === undefined)
    throw new Error(`knex-query-params: unknown dialect '${String(name)}'; expected 'postgres', 'mysql' or 'sqlite'`)
  const key = declarationKey(client)
  const earlier = declared.get(key)
  if (earlier !== undefined) {
    if (earlier.name !== name)
      throw new Error(
        `knex-query-params: dialect '${name}' declared for a knex instance declared '${earlier.name}' before`,
      )
    return earlier
  }
  const listed = listedDialect(client)
  if (listed !== undefined && listed.name !== name) {
    throw new Error(
      `knex-query-params: dialect '${name}' declared for the knex client '${knexClientName(client)}', which is ` +
        `${listed.name}`,
    )
  }
  declared.set(key, dialect)
  return dialect
}
