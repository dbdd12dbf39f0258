import type { SearchMode } from '../relation-map.ts'
import type { Condition } from './query-plan.ts'

/**
 * A `fulltext` search as its table declares it: the database's full-text index of these own columns answers
 * (no column when the declaration lists only relation columns).
 */
export interface PlannedFulltext {
  /** The table whose full-text index this is. */
  table: string
  /** The searched database columns of the base table, in declared order. */
  columns: string[]
  /** PostgreSQL's text search configuration (`simple` by default). */
  language: string
  /** PostgreSQL: a stored `tsvector` column matched instead of the expression over `columns`. */
  vector?: string
  /** SQLite: the FTS5 external-content table whose rowid is {@link key}. */
  fts?: string
  /** The base table's one-column primary key (the FTS5 rowid). */
  key: string
}

/**
 * The request's `search`, validated against its table's declaration: its terms (words and phrases) and, in
 * `contains` mode, per term the conditions any of which finds it (a `like` on an own column, an existence test
 * through relations for a `relation.column`), or the full-text index to ask.
 */
export interface PlannedSearch {
  mode: SearchMode
  terms: string[]
  contains: Condition[][]
  fulltext?: PlannedFulltext
  /**
   * `fulltext` mode: per relation path of the declared `relation.column`s, the existence of a related row whose own
   * full-text index finds every term (a `fulltext` condition inside the relation filter); any of them, or the base
   * table's own index, finds the row.
   */
  related: Condition[]
}
