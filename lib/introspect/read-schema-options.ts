/** Which tables {@link readSchema} reads, and where. */
export interface ReadSchemaOptions {
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
