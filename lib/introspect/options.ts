import type { DialectOptions } from '../dialect/dialect-options.ts'

/**
 * Which tables {@link readSchema} reads, and where; `dialect` declares the database of a knex client the library does
 * not list.
 */
export interface ReadSchemaOptions extends DialectOptions {
  /** Read only these tables (the names as the database spells them). Default: every table. */
  tables?: readonly string[]
  /** Leave these tables out. knex's migration tables (`knex_migrations*`) are left out unless named in `tables`. */
  exclude?: readonly string[]
  /**
   * The PostgreSQL schema, MySQL/MariaDB database or SQLite schema (`main`, or an attached database's name) to
   * read. Default: the connection's own (`current_schema()`, `database()`, `main`). Several, comma-separated
   * (`'public,analytics'`): the first one's tables by their names, the others' as `schema.table`, with the foreign
   * keys between them.
   */
  schema?: string
  /** Read views too, as tables of `kind: 'view'` (columns and types; no keys, no relations). Default `false`. */
  views?: boolean
}

/**
 * Where {@link checkRelationMap} reads the schema, and which optional checks it runs; `dialect` declares the database
 * of a knex client the library does not list.
 */
export interface CheckRelationMapOptions extends DialectOptions {
  /**
   * The PostgreSQL schema, MySQL/MariaDB database or SQLite schema holding the map's tables; default: the connection's
   * own.
   */
  schema?: string
  /**
   * Also warn (`sortable_without_index`) about each sortable column (not declared `sortable: false`) that no
   * index serves as an order, i.e. that is neither the first column of an index nor of the primary key;
   * default `false`.
   */
  indexes?: boolean
  /**
   * Tables meant to be read by every caller although other tables have a guard (shared lookup tables such
   * as `countries`): no `unguarded_table` warning for them.
   */
  unguarded?: readonly string[]
}

/**
 * How generated names are spelled: `camel` gives every column and relation a camelCase client name
 * (`artistId`, declared with `column: 'ArtistId'` where the database spells it differently), `snake` a
 * snake_case one (`artist_id`), and `as-is` keeps each column's database name and builds relation names
 * from the database's own words.
 */
export type Naming = 'camel' | 'snake' | 'as-is'

/**
 * What {@link relationMapFromSchema} and `introspectRelationMap` put in the map.
 *
 * @example
 * const options: RelationMapFromSchemaOptions = { naming: 'camel', exclude: ['audit_log'], excludeColumns: ['deleted_at', '*_secret'], noInverse: ['tenants'] }
 */
export interface RelationMapFromSchemaOptions {
  /** Only these tables (default: every table but knex's migration tables). Relations to other tables are left out. */
  tables?: readonly string[]
  /** Tables to leave out. */
  exclude?: readonly string[]
  /**
   * Columns to leave out of every table they occur in: a name (`deleted_at`) or `table.column`, `*` for any
   * text (`*_secret`, `audit_*`, `*.tenant_id`); matched case-insensitively against the database name and its
   * snake_case. Primary-key columns are kept (and reported). Relations through a left-out column stay, since
   * keys name database columns.
   */
  excludeColumns?: readonly string[]
  /**
   * Tables that get no inverse relations: no `hasMany`/`hasOne` onto them from the tables whose foreign keys
   * reference them (`['tenants']`: no `tenants.orders`, `tenants.products`…). The `belongsTo` on the
   * referencing side stays.
   */
  noInverse?: readonly string[]
  /** How client names are spelled; default `as-is`. Relation keys always name database columns. */
  naming?: Naming
  /**
   * Columns left out of the allow-list because their names look secret; each pattern is tested against the
   * column's name in snake_case, lower case (`PasswordHash` → `password_hash`). Default {@link DEFAULT_SECRET_COLUMNS}.
   */
  secretColumns?: readonly RegExp[]
  /** Also expose each pivot table (linked by `belongsToMany`) as a table of its own; default `false`. */
  exposePivots?: boolean
  /**
   * Declare `bigint`/`int8` columns as `bigint` and `numeric`/`decimal` ones as `decimal`, which come back as
   * exact strings on every database; default `true`. `false` declares them `integer` and `number`, which come
   * back as JS numbers (exact up to 2^53 and about 15 significant digits).
   */
  exactNumbers?: boolean
  /**
   * Declare `sortable: false` on every column no index serves as an order: one that is neither the first
   * column of an index nor of the primary key (see `SchemaTable.indexes`), so clients cannot ask for an order
   * that sorts every matching row; default `false`. Each table's such columns are listed in a notice.
   */
  sortableIndexedOnly?: boolean
}

/** knex's migration bookkeeping, left out unless named in `tables`. */
export const KNEX_MIGRATION_TABLES: readonly string[] = ['knex_migrations', 'knex_migrations_lock']

/**
 * The default {@link RelationMapFromSchemaOptions.secretColumns}: passwords and passphrases, `*_hash` and
 * `hashed_*`, anything with `token`, `secret` or `credential` in it, `salt`, API, private and access keys,
 * one-time-password seeds.
 */
export const DEFAULT_SECRET_COLUMNS: readonly RegExp[] = [
  /(^|_)(password|passwd|passphrase|pwd)(_|$)/,
  /(^|_)hash$|^hashed_/,
  /token/,
  /secret/,
  /credential/,
  /(^|_)salt$/,
  /(^|_)(api|private|access|encryption|signing)_?key(_|$)/,
  /(^|_)(otp|totp|mfa)(_|$)/,
]
