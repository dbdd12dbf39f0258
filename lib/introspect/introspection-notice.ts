/** Why something of the schema is not in the generated map as it is in the database. */
export type IntrospectionNoticeKind =
  /** A column whose name looks secret (see `DEFAULT_SECRET_COLUMNS`), left out. */
  | 'secret-column'
  /** A column matched by `excludeColumns`: left out (or kept, reported, when it is a primary-key column). */
  | 'excluded-column'
  /** Inverse relations (hasMany/hasOne) onto a table in `noInverse`, not generated. */
  | 'skipped-inverse'
  /** A column no map type holds (binary, arrays, geometry…), left out. */
  | 'unmapped-column'
  /** Two columns whose client names would be the same; one keeps its database name. */
  | 'column-name-clash'
  /** A relation renamed because its first name was taken by a column or another relation. */
  | 'relation-name-clash'
  /**
   * No longer emitted: a foreign key over several columns gets composite relations (`foreignKey: ['a', 'b']`). Kept so
   * that code matching on it still compiles.
   */
  | 'multi-column-foreign-key'
  /** A foreign key to or from a table that is not in the map, left out. */
  | 'foreign-key-outside-map'
  /** A foreign key the database does not enforce: its `belongsTo` is not `required`. */
  | 'unenforced-foreign-key'
  /** A table without a primary key: a unique NOT NULL column stands in, or the table is left out. */
  | 'no-primary-key'
  /** A pivot table, used by `belongsToMany` and not exposed as a table of its own. */
  | 'pivot-table'
  /** A table left out by `tables`/`exclude` or because it is knex's migration bookkeeping. */
  | 'excluded-table'
  /** With `sortableIndexedOnly`: columns declared `sortable: false`, since no index leads with them. */
  | 'unindexed-sort'
  /** On SQLite, the storage of a `datetime` column declared from a sample of its values (or why it could not be). */
  | 'datetime-storage'
  /** A table's partitions or `INHERITS` children, folded into it: the parent's queries read their rows. */
  | 'partition'
  /**
   * A search index the generated `search` is not declared from (its columns unreadable, another expression, a column
   * the map leaves out, another index chosen), or an FTS5 table and its shadow tables folded into their content table.
   */
  | 'search-index'

/**
 * One thing the generated map leaves out or decides on its own, for the developer to review.
 *
 * @example
 * { kind: 'secret-column', table: 'users', column: 'password', message: "users.password: left out, its name looks secret" }
 */
export interface IntrospectionNotice {
  kind: IntrospectionNoticeKind
  /** The database table it concerns. */
  table: string
  /** The database column it concerns, where one does. */
  column?: string
  /** One sentence, starting with `table.column` or `table`. */
  message: string
}
