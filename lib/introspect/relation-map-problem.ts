/**
 * How much a {@link RelationMapProblem} matters. `error`: a request can fail or return wrong rows (a missing
 * column, a key that does not exist, a NOT NULL or unique claim the database does not keep). `warning`: the
 * map works but is slower or cannot be checked (a NOT NULL column declared nullable, a type with no map type).
 */
export type RelationMapProblemLevel = 'error' | 'warning'

/** Each kind of problem and its level; the kinds are stable names a program may match on. */
export const RELATION_MAP_PROBLEM_LEVELS = {
  /** A table of the map, or a relation's pivot table, is not in the database. */
  missing_table: 'error',
  /** A declared column (its database column, when aliased) is not in the table. */
  missing_column: 'error',
  /**
   * A key the map names or implies is not a column: `primaryKey` (default `id`), a relation's keys, a pivot's keys, a
   * morph pair.
   */
  missing_key: 'error',
  /**
   * The map's `primaryKey` columns exist, but no primary key or unique constraint of the database makes them unique.
   */
  key_not_unique: 'error',
  /** A column declared `nullable: false` may hold NULL in the database. */
  not_null_not_enforced: 'error',
  /** A column declared `unique: true` has no single-column unique constraint or index (nor is the primary key). */
  unique_not_enforced: 'error',
  /** A `required` belongsTo whose foreign-key column may hold NULL. */
  required_foreign_key_nullable: 'error',
  /** A `required` belongsTo with no foreign-key constraint to its table's key, or one the database does not enforce. */
  required_foreign_key_not_enforced: 'error',
  /**
   * Two paired columns of a composite relation key hold different types in the database (an integer and a date-time):
   * the relation would never match, or match by conversion.
   */
  relation_key_type_mismatch: 'error',
  /**
   * A composite relation key that nothing in the database backs: no foreign key between its columns, and the
   * referenced columns are neither the primary key nor unique, so one row may have several "owners".
   */
  relation_key_unbacked: 'error',
  /** The declared type is not one the database column can hold: a client's value would become a database error. */
  type_mismatch: 'error',
  /** A `number` column declared `precision: 'single'` that the database stores as a double: values would be rounded. */
  single_precision_not_stored: 'error',
  /**
   * The column is NOT NULL in the database but declared nullable: orders on it get a NULL-ordering clause they do not
   * need.
   */
  not_null_undeclared: 'warning',
  /** The database column's type has no map type (time of day, intervals, ranges…), so the declared type cannot be checked. */
  type_unknown: 'warning',
  /** A single-precision `number` column (PostgreSQL `real`, MySQL `FLOAT`) not declared `precision: 'single'`. */
  single_precision_undeclared: 'warning',
  /** On SQLite, sampled values of a `datetime` column do not have the form its `storage` declares. */
  datetime_storage_mismatch: 'warning',
  /**
   * Some tables of the map have a guard and this one, reachable through a relation, has none (and is not listed in
   * `unguarded`).
   */
  unguarded_table: 'warning',
  /**
   * Only with the `indexes` option: a sortable column that leads no index nor the primary key, so an order on it sorts
   * every matching row.
   */
  sortable_without_index: 'warning',
  /**
   * Only with the `indexes` option: no index of the table serves its declared `search` (its SQL would read every
   * row); the message names the index to create.
   */
  search_without_index: 'warning',
  /**
   * Only with the `indexes` option, on a partitioned MySQL/MariaDB table: a sortable column whose indexes do not go
   * on with the primary key, so the primary-key tie-breaker that ends every paged order sorts every matching row.
   */
  sortable_partitioned_index: 'warning',
} as const satisfies Record<string, RelationMapProblemLevel>

/** A stable name for what is wrong; see {@link RELATION_MAP_PROBLEM_LEVELS}. */
export type RelationMapProblemKind = keyof typeof RELATION_MAP_PROBLEM_LEVELS

/** One difference between the relation map and the live schema, found by `checkRelationMap`. */
export interface RelationMapProblem {
  kind: RelationMapProblemKind
  level: RelationMapProblemLevel
  /** Where in the map: `posts.columns.user_id`, `genres.primaryKey`, `posts.relations.tags.pivotTable`. */
  path: string
  /** What is wrong and what the database says, in one sentence. */
  message: string
}

/** A {@link RelationMapProblem} of `kind`, at its kind's level. */
export function relationMapProblem(kind: RelationMapProblemKind, path: string, message: string): RelationMapProblem {
  return { kind, level: RELATION_MAP_PROBLEM_LEVELS[kind], path, message }
}
