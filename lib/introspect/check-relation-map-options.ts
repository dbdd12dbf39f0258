/** Where {@link checkRelationMap} reads the schema. */
export interface CheckRelationMapOptions {
  /** The PostgreSQL schema, MySQL/MariaDB database or SQLite schema holding the map's tables; default: the connection's own. */
  schema?: string
}
