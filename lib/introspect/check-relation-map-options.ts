import type { DialectOptions } from '../dialect/dialect-options.ts'

/** Where {@link checkRelationMap} reads the schema, and which optional checks it runs; `dialect` declares the database of a knex client the library does not list. */
export interface CheckRelationMapOptions extends DialectOptions {
  /** The PostgreSQL schema, MySQL/MariaDB database or SQLite schema holding the map's tables; default: the connection's own. */
  schema?: string
  /**
   * Also warn (`sortable_without_index`) about each sortable column (not declared `sortable: false`) that no
   * index serves as an order, i.e. that is neither the first column of an index nor of the primary key;
   * default `false`.
   */
  indexes?: boolean
}
