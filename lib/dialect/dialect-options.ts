import type { DialectName } from './dialect.ts'

/** The option that declares which database's SQL a knex client speaks, for a client the library does not list. */
export interface DialectOptions {
  /**
   * The database whose SQL to write, for a knex client the library does not list (`cockroachdb`, `pgnative`,
   * `mariadb`, a client class of another package): `'postgres'`, `'mysql'` (MariaDB too) or `'sqlite'`. It
   * holds for the knex instance and its transactions from then on; a listed client may only be declared as
   * what it is. Without it, such a client is an `Error`.
   *
   * @example
   * const db = knex({ client: 'cockroachdb', connection })
   * await applyQueryParams(db('users'), params, relationMap, { dialect: 'postgres' })
   */
  dialect?: DialectName
}
