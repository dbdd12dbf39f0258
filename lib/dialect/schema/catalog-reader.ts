import type { Knex } from 'knex'
import type { SchemaTable } from './schema-snapshot.ts'

/** Which tables a {@link CatalogReader} reads. */
export interface CatalogScope {
  /**
   * The PostgreSQL schema, MySQL database or SQLite schema (`main`, an attached name); default: the connection's own.
   */
  schema: string | undefined
  /** Whether to read the table of this name. */
  includes(table: string): boolean
  /** Also read views (`kind: 'view'`); with `'every'`, partitions and `INHERITS` children too (`kind: 'partition'`). */
  kinds?: 'views' | 'every'
}

/** Reads tables, columns, keys, uniques, indexes and foreign keys from one database's catalog. */
export interface CatalogReader {
  read(db: Knex, scope: CatalogScope): Promise<SchemaTable[]>
  /** The schema read when none is named: `current_schema()` (PostgreSQL), `database()` (MySQL), `main` (SQLite). */
  defaultSchema(db: Knex): Promise<string>
}
