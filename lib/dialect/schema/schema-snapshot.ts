import type { ColumnType, SearchMode } from '../../relation-map.ts'

/** A column as the database declares it. */
export interface SchemaColumn {
  /** The column's name in the database, exactly as it is spelled there (`ArtistId`, `created_at`). */
  name: string
  /**
   * The database's own type name, lower case, without length or precision (`varchar`, `int4`, `timestamp with time
   * zone`).
   */
  dataType: string
  /**
   * The map's column type that holds this column's values, or `undefined` when no map type does (bytea, arrays, geometry…).
   */
  type: ColumnType | undefined
  /** Whether the column may hold NULL. */
  nullable: boolean
  /** `'single'` for a single-precision float (PostgreSQL `real`, MySQL/MariaDB `FLOAT`; SQLite has none). */
  precision?: 'single'
  /** An enum's values in declaration order (PostgreSQL enum types, MySQL `ENUM`, SQLite `CHECK (column IN (…))`). */
  values?: string[]
  /** Whether it is a fixed-length `CHAR(n)` column, whose values the database pads with spaces. */
  padded?: boolean
}

/** A foreign key: `columns` of this table reference `referencedColumns` of `referencedTable`. */
export interface SchemaForeignKey {
  /** The constraint's name, where the database names it. */
  name: string | undefined
  /** The referencing columns of this table, in constraint order. */
  columns: string[]
  /** The referenced table. */
  referencedTable: string
  /** The referenced columns, in constraint order. */
  referencedColumns: string[]
  /**
   * Whether the database checks the constraint on every write: `false` for a PostgreSQL constraint that is
   * `NOT VALID`, a MySQL table whose engine ignores foreign keys, or SQLite with `PRAGMA foreign_keys` off.
   */
  enforced: boolean
}

/**
 * An index that can answer a search of the table (see `SearchDefinition`): a full-text index, or on PostgreSQL a
 * pg_trgm index, which serves `like '%…%'` (a `contains` search).
 *
 * @example
 * { name: 'posts_search', mode: 'fulltext', columns: ['title', 'body'], language: 'english' } // PostgreSQL
 * { name: 'posts_title_trgm', mode: 'contains', columns: ['title'] } // PostgreSQL, gin (title gin_trgm_ops)
 * { name: 'posts_search', mode: 'fulltext', columns: ['title', 'body'] } // MySQL/MariaDB FULLTEXT
 * { name: 'posts_fts', mode: 'fulltext', columns: ['title', 'body'], fts: 'posts_fts', rowid: 'id' } // SQLite FTS5
 */
export interface SchemaSearchIndex {
  /** The index's name; on SQLite the FTS5 table's. */
  name: string
  /** `fulltext` for a full-text index, `contains` for a pg_trgm index (GIN `gin_trgm_ops`, GiST `gist_trgm_ops`). */
  mode: SearchMode
  /**
   * The table's columns it indexes, in the index's order (the columns a `to_tsvector` expression or a generated
   * `tsvector` column reads, in the order they appear); empty when they could not be read (see `unreadable`).
   */
  columns: string[]
  /** PostgreSQL full-text: the text search configuration of its `to_tsvector` (`english`). */
  language?: string
  /** PostgreSQL: the stored `tsvector` column it indexes (its columns and configuration read from its generation). */
  vector?: string
  /** SQLite: the external-content FTS5 table (`content='<table>'`), which is this index. */
  fts?: string
  /** SQLite: the column of the table the FTS5 rowid holds (`content_rowid`; the rowid's alias when not given). */
  rowid?: string
  /** SQLite: the FTS5 table's shadow tables (`<fts>_data`, `_idx`, `_docsize`, `_config`), in name order. */
  shadowTables?: string[]
  /**
   * PostgreSQL: the indexed expression as the database prints it, when it is not the one a declared search writes
   * over `columns` (`to_tsvector('<language>'::regconfig, coalesce(a, '') || ' ' || coalesce(b, ''))`): such an
   * index does not serve the search, since PostgreSQL uses an expression index only for that same expression.
   */
  expression?: string
  /** Why `columns` could not be read: the expression as the database prints it, or what it lacks. */
  unreadable?: string
}

/** One table as the database declares it. */
export interface SchemaTable {
  name: string
  /**
   * `view` for a view (read only with `views`), `partition` for a partition or an `INHERITS` child (read only by
   * `checkRelationMap`: the parent's relation already reads its rows); absent for a table.
   */
  kind?: 'view' | 'partition'
  /** The partitions and `INHERITS` children of a parent table, folded into it. */
  partitions?: string[]
  /** The columns, in the table's order. */
  columns: SchemaColumn[]
  /** The primary key's columns in key order; empty when the table has none. */
  primaryKey: string[]
  /**
   * Each unique constraint or unique index (not partial, not on expressions) other than the primary key, as its
   * columns.
   */
  uniques: string[][]
  /**
   * Each index that can serve an order (a B-tree: not hash, GIN, full-text or spatial; not partial, not on
   * expressions), as its key columns in order; unique indexes and the primary key included (the primary key
   * always, also SQLite's rowid key, which has no index of its own). Sorted by columns, without repeats. A
   * column that leads one of them is "served as an order" (see `checkRelationMap`'s `indexes` option).
   * `readSchema` always fills it; a snapshot made by hand without it counts only its primary key.
   */
  indexes?: string[][]
  /**
   * `true` on a partitioned MySQL/MariaDB table: its indexes are one per partition, and an order is served only up
   * to an index's own columns (`(created_at)` serves `order by created_at`, not `order by created_at, id`).
   */
  partitionLocalIndexes?: boolean
  foreignKeys: SchemaForeignKey[]
  /**
   * The indexes that can answer a search (see {@link SchemaSearchIndex}), sorted by name; present only on a table
   * that has some.
   */
  searchIndexes?: SchemaSearchIndex[]
}

/** The tables of one database (one schema on PostgreSQL), sorted by name. */
export interface SchemaSnapshot {
  tables: SchemaTable[]
}
