import type { Knex } from 'knex'
import type { Operator } from './query-params.ts'

/**
 * The declared type of an allow-listed column: client values are coerced to it before binding, and rows come
 * back with the JSON value of this type on every database (see `ColumnValues`). `bigint` and `decimal` come
 * back as exact strings (`'9007199254740993'`, `'4.99'`): a JS number cannot hold every value of them. `json`
 * (PostgreSQL `json`/`jsonb`, MySQL `JSON`, SQLite text holding JSON) comes back as the parsed JSON value; it is
 * selectable only: a filter or an order on it is a 400 (`not_filterable`, `not_sortable`).
 */
export type ColumnType =
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'bigint'
  | 'decimal'
  | 'json'

/**
 * How a `datetime` column stores its instants on SQLite, which has no date-time type: `'text'` (default) is
 * SQLite's own UTC `YYYY-MM-DD HH:MM:SS` (`CURRENT_TIMESTAMP`), `'iso'` is UTC ISO 8601 text with milliseconds
 * (`2024-03-01T12:00:00.000Z`, what `Date#toISOString` writes), `'epoch_ms'` is milliseconds since 1970 as an
 * integer (what knex writes for a JS `Date` through better-sqlite3), `'epoch_s'` is seconds since 1970 (an integer, or
 * a real with a fraction; Unix time, `strftime('%s')`), `'date'` is date-only `YYYY-MM-DD` text (each value the
 * midnight UTC that starts the day). Filters bind client values in this form, so they compare as PostgreSQL does.
 * Ignored on PostgreSQL and MySQL.
 */
export type DatetimeStorage = 'text' | 'iso' | 'epoch_ms' | 'epoch_s' | 'date'

/**
 * A column declared with more than its type. `nullable: false` says the column is NOT NULL, so its orders
 * need no NULL-ordering clause and an index on it can serve them; `unique: true` says no two rows share a
 * value, so it can end an order without a primary-key tie-breaker. `column` declares the column under the
 * client's name when the database spells it otherwise; relation keys and `primaryKey` still name the
 * database column.
 *
 * @example
 * columns: { id: 'integer', created_at: { type: 'datetime', nullable: false }, email: { type: 'string', nullable: false, unique: true } }
 * columns: { artistId: { type: 'integer', column: 'ArtistId' } }  // the client sends and receives artistId
 * columns: { body: { type: 'string', sortable: false, operators: ['=', 'in'] } }  // no order, no like
 */
export interface ColumnDefinition {
  type: ColumnType
  /** Whether the column may hold NULL; default `true` (the primary key is always NOT NULL). */
  nullable?: boolean
  /** Whether the column's values are unique on their own; default `false` (a one-column primary key always is). */
  unique?: boolean
  /**
   * The database column, when the client's name for it (the key in `columns`) differs: `artistId: { type: 'integer',
   * column: 'ArtistId' }`.
   */
  column?: string
  /** On SQLite, how a `datetime` column stores its values (see {@link DatetimeStorage}); default `'text'`. */
  storage?: DatetimeStorage
  /**
   * How a `number` column stores its values: `'double'` (default; PostgreSQL `double precision`, MySQL `DOUBLE`,
   * SQLite `REAL`) or `'single'` (PostgreSQL `real`/`float4`, MySQL/MariaDB `FLOAT`, about 7 digits). A client's
   * value for a `'single'` column is compared as the column holds it (rounded to single precision), so `<=` and
   * `=` on the value a row came back with agree on every database. A value beyond the single range is compared
   * as a double (exactly, as the mathematics says) whatever is declared. `checkRelationMap` reports a
   * single-precision column declared otherwise, and the map generator declares it.
   */
  precision?: 'single' | 'double'
  /**
   * Whether a client may order by the column, directly or through a relation, and name it in a `distinct`
   * request (`not_sortable` otherwise); default `true`. Say `false` for a column no index serves as an order.
   */
  sortable?: boolean
  /**
   * Whether a client may filter on the column, directly or as `relation.column` (`not_filterable` otherwise); default
   * `true`.
   */
  filterable?: boolean
  /**
   * The only operators a client may filter the column with (`operator_not_allowed` otherwise); default every
   * operator its type takes. `['=', 'in']` keeps an unindexed text column to lookups its index can serve.
   */
  operators?: readonly Operator[]
  /**
   * The only values a `string` column holds (an enum: a PostgreSQL enum type, a MySQL `ENUM`, a checked text
   * column). `=`, `!=`, `in` and `notIn` take only these (`invalid_value` with the list otherwise); `like` and
   * comparisons read the column as text on every database (PostgreSQL compares an enum in declaration order).
   */
  values?: readonly string[]
  /**
   * A fixed-length `CHAR(n)` `string` column: its values come back without trailing spaces on every database,
   * and `=`, `in` and `like` ignore them (as MySQL and the SQL standard compare `CHAR`).
   */
  padded?: boolean
}

/** How a column is declared in `columns`: its type alone (nullable, not unique), or a {@link ColumnDefinition}. */
export type ColumnSpec = ColumnType | ColumnDefinition

/**
 * The column of a relation key, or its columns in order for a composite key (a foreign key that spans two columns,
 * such as one into a table partitioned by a date: `['rental_id', 'rental_date']`). The two sides of a relation name
 * the same number of columns, paired in order.
 */
export type RelationKey = string | readonly string[]

/**
 * `this.<foreignKey>` references `table.<ownerKey>` (default: the related table's primary key). Composite keys are
 * arrays paired in order.
 *
 * @example
 * rental: { type: 'belongsTo', table: 'rental', foreignKey: ['rental_id', 'rental_date'] } // rental's composite key
 */
export interface BelongsToRelation {
  type: 'belongsTo'
  table: string
  foreignKey: RelationKey
  ownerKey?: RelationKey
  /**
   * `true` when every row has its related row: the foreign key is NOT NULL and a constraint guarantees the
   * referenced row exists. Orders through it may then use an inner join. Default `false`.
   */
  required?: boolean
}

/**
 * One order of a relation's related rows: a column of the related table's allow-list (its client name) and a direction.
 */
export interface RelationOrder {
  column: string
  direction: 'asc' | 'desc'
}

/**
 * How many related rows eager loading gives each parent of a to-many relation (`hasMany`, `morphMany`,
 * `belongsToMany`), and in which order: at most `limit` rows, by `orders`, then by the related primary key in
 * the last order's direction (ascending without orders), in one query per batch. Relation filters and
 * `relationsExists` still see every related row. A to-one relation (`hasOne`, `morphOne`) takes neither key:
 * it always loads the related row with the lowest key.
 *
 * @example
 * comments: { type: 'hasMany', table: 'comments', foreignKey: 'post_id', limit: 5, orders: [{ column: 'created_at', direction: 'desc' }] }
 */
export interface RelationTopN {
  /** Most related rows each parent gets when eager-loaded (a positive integer); default every row. */
  limit?: number
  /**
   * The order of each parent's related rows when eager-loaded; only with `limit`. Default: by the related primary key.
   */
  orders?: readonly RelationOrder[]
}

/**
 * `table.<foreignKey>` references `this.<localKey>` (default: this table's primary key). Composite keys are arrays
 * paired in order. A `hasMany` may declare `limit` and `orders` ({@link RelationTopN}); a `hasOne` eager-loads the
 * related row with the lowest key.
 *
 * @example
 * payments: { type: 'hasMany', table: 'payment', foreignKey: ['rental_id', 'rental_date'] } // on rental
 */
export interface HasRelation extends RelationTopN {
  type: 'hasOne' | 'hasMany'
  table: string
  foreignKey: RelationKey
  localKey?: RelationKey
}

/**
 * Rows of `table` linked through `pivotTable`: `pivotTable.<foreignPivotKey>` references `this.<parentKey>`
 * and `pivotTable.<relatedPivotKey>` references `table.<relatedKey>` (both default to the primary keys).
 */
export interface BelongsToManyRelation extends RelationTopN {
  type: 'belongsToMany'
  table: string
  pivotTable: string
  foreignPivotKey: string
  relatedPivotKey: string
  parentKey?: string
  relatedKey?: string
}

/**
 * Polymorphic children: `table.<name>_type = morphType` and `table.<name>_id = this.<localKey>`. A `morphMany`
 * may declare `limit` and `orders` ({@link RelationTopN}); a `morphOne` eager-loads the child with the lowest key.
 */
export interface MorphManyRelation extends RelationTopN {
  type: 'morphOne' | 'morphMany'
  table: string
  name: string
  morphType: string
  localKey?: string
}

/** Polymorphic parent: the value of `this.<name>_type` picks the table from `types`, `this.<name>_id` its key. */
export interface MorphToRelation {
  type: 'morphTo'
  name: string
  types: Record<string, string>
}

/** Any relation a table may declare. */
export type RelationDefinition =
  | BelongsToRelation
  | HasRelation
  | BelongsToManyRelation
  | MorphManyRelation
  | MorphToRelation

/** The relation types, as written in `type`. */
export type RelationType = RelationDefinition['type']

/** A named scope: it receives the query builder and adds its own clauses. */
export type Scope = (query: Knex.QueryBuilder) => void

/** The function of a declared aggregate. */
export type AggregateFunction = 'count' | 'sum' | 'avg' | 'min' | 'max'

/**
 * A named aggregate over the related rows of one relation, which a client asks for in `with` and may order
 * and filter by: `fn` over `column` (a column of the related table, by its client name; `count` may leave it
 * out to count rows), restricted by `scope`, the name of a scope of the related table, when given. The
 * related table's guard always applies. The value is added to each row under the snake_case of the name.
 *
 * @example
 * aggregates: {
 *   postsViewsSum: { relation: 'posts', fn: 'sum', column: 'views' },        // posts_views_sum
 *   publishedPostsCount: { relation: 'posts', fn: 'count', scope: 'published' },
 * }
 */
export interface AggregateDefinition {
  /** A relation of this table (not `morphTo`). */
  relation: string
  fn: AggregateFunction
  /** A column of the related table; required for `sum`, `avg`, `min` and `max` (`sum` and `avg` need a numeric one). */
  column?: string
  /**
   * A scope of the related table (its `scopes`) that restricts the rows aggregated; it may add only where conditions.
   */
  scope?: string
}

/** What a {@link Guard} is told about where it applies. */
export interface GuardInfo<Context = unknown> {
  /**
   * The name or alias this table's columns must be qualified with at this position (`users_2` when a table repeats).
   */
  table: string
  /** The value passed as `options.context` to `applyQueryParams` or `loadRelations`. */
  context: Context
}

/**
 * A table's row guard: it adds the conditions a row of this table must meet to be seen, wherever the client's
 * request reaches the table (base query, relation filters, eager loading, relation orders, counts). It only
 * adds `where` conditions, qualified with `info.table`; they are grouped, so an `or` among them never widens
 * anything. A guard that adds nothing adds no SQL; one that throws is a server bug (a plain `Error`).
 *
 * @example
 * const guard: Guard<{ tenantId: number }> = (query, { table, context }) => {
 *   query.where(`${table}.tenant_id`, context.tenantId).whereNull(`${table}.deleted_at`)
 * }
 */
// Declared as a method so that a map of guards for one context type is still a `RelationMap`.
export type Guard<Context = unknown> = { guard(query: Knex.QueryBuilder, info: GuardInfo<Context>): void }['guard']

/** How a declared search matches: see {@link SearchDefinition}. */
export type SearchMode = 'contains' | 'fulltext'

/**
 * The search box of a table: the request's top-level `search` text filters its rows over `columns` (client names:
 * own columns and `relation.column` paths through `belongsTo`/`hasOne`/`hasMany`/`belongsToMany`/`morphOne`/
 * `morphMany`). In `contains` mode every word (a double-quoted phrase is one word) must be found, ignoring case,
 * in at least one of the columns; `%`, `_` and `\\` are literal. In `fulltext` mode the database's full-text
 * index of the table's own columns answers (`websearch_to_tsquery` on PostgreSQL, `MATCH … AGAINST` on
 * MySQL/MariaDB, the FTS5 table `fts` on SQLite), and a client may order by `relevance`; a `relation.column` is
 * read from the related table's own index, which that table declares as its own `fulltext` search of the columns
 * listed through the path. See docs/search.md.
 *
 * @example
 * search: { columns: ['title', 'body', 'author.name'], mode: 'contains' }
 * search: { columns: ['title', 'body'], mode: 'fulltext', language: 'english', fts: 'posts_fts' }
 * search: { columns: ['title', 'author.name'], mode: 'fulltext' } // users declares search: { columns: ['name'], mode: 'fulltext' }
 */
export interface SearchDefinition {
  /**
   * The searched columns: own columns and `relation.column` paths, in the map's client names; string columns. In
   * `fulltext` mode the related table of a path must declare a `fulltext` search of exactly the columns listed
   * through that path.
   */
  columns: readonly string[]
  mode: SearchMode
  /** `fulltext` on PostgreSQL: the text search configuration of the index (`'english'`); default `'simple'`. */
  language?: string
  /**
   * `fulltext` on PostgreSQL: a stored `tsvector` column (database name) to match instead of the expression over
   * `columns`.
   */
  vector?: string
  /**
   * `fulltext` on SQLite: the FTS5 table indexing `columns` with `content='<table>'` and the primary key as its rowid.
   */
  fts?: string
}

/** What a client may do with one table; `Context` is the type of the guard's `context`. */
export interface TableDefinition<Context = unknown> {
  /** Primary key column, or its columns in key order for a composite key; default `id`. */
  primaryKey?: string | readonly string[]
  /** The allow-list: the only columns a client may filter, select, order or distinct by, and the only ones returned. */
  columns: Record<string, ColumnSpec>
  /** Relations a client may filter through, test for existence, or eager-load. */
  relations?: Record<string, RelationDefinition>
  /**
   * Named aggregates over related rows, asked for with `with[i]=<name>` (see {@link AggregateDefinition}).
   * Every to-many relation also has `<relation>Count`, and every direct relation `<relation>Exists`, without
   * declaring them.
   */
  aggregates?: Record<string, AggregateDefinition>
  /** Named scopes a client may apply with `scopes[i]`. */
  scopes?: Record<string, Scope>
  /** The rows of this table a caller may see, applied on every path (see {@link Guard}). */
  guard?: Guard<Context>
  /** The columns the request's `search` text filters this table's rows by (see {@link SearchDefinition}). */
  search?: SearchDefinition
}

/**
 * Maps each table the client may reach to what the client may do with it. It is the only source of
 * identifiers: nothing the client sends becomes SQL unless it names an entry here.
 *
 * @example
 * const map: RelationMap = {
 *   users: {
 *     columns: { id: 'integer', name: 'string', created_at: 'datetime' },
 *     relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
 *   },
 *   posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
 * }
 */
export type RelationMap<Context = unknown> = Record<string, TableDefinition<Context>>
