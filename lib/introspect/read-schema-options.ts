import type { DialectOptions } from '../dialect/dialect-options.ts'

/** Which tables {@link readSchema} reads, and where; `dialect` declares the database of a knex client the library does not list. */
export interface ReadSchemaOptions extends DialectOptions {
  /** Read only these tables (the names as the database spells them). Default: every table. */
  tables?: readonly string[]
  /** Leave these tables out. knex's migration tables (`knex_migrations*`) are left out unless named in `tables`. */
  exclude?: readonly string[]
  /**
   * The PostgreSQL schema, MySQL/MariaDB database or SQLite schema (`main`, or an attached database's name) to
   * read. Default: the connection's own (`current_schema()`, `database()`, `main`).
   */
  schema?: string
}
