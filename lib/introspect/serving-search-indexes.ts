import type { SchemaSearchIndex } from '../dialect/schema/schema-snapshot.ts'
import type { SearchMode } from '../relation-map.ts'

/** A declared search as its own table's index must serve it: database columns, its options resolved. */
export interface OwnSearch {
  mode: SearchMode
  /** The table's own searched columns (database names), in declaration order. */
  columns: readonly string[]
  /** The configuration the search's SQL names (`'simple'` when the declaration has none). */
  language: string
  vector?: string | undefined
  fts?: string | undefined
  /** The table's single primary-key column, which an FTS5 rowid must hold. */
  key: string | undefined
}

const sameList = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column, at) => right[at] === column)
const sameSet = (left: readonly string[], right: readonly string[]): boolean =>
  left.length === right.length && left.every((column) => right.includes(column))

/**
 * Whether a full-text index serves `search`, i.e. is read by the search's SQL and indexes what it declares: a
 * `tsvector` column's index when the search matches that `vector` (its columns and configuration the declared ones
 * when they can be read); an FTS5 table when it is the declared `fts`, over the declared columns, its rowid the
 * key; a PostgreSQL expression index on the very expression the search writes (the declared columns in order, the
 * configuration); a MySQL/MariaDB `FULLTEXT` index over the declared columns in any order. Each database's index
 * is compared with the options its SQL reads only (`fts` is no matter on PostgreSQL, `vector` none on MySQL).
 *
 * @example
 * servesFulltext({ name: 'posts_search', mode: 'fulltext', columns: ['body', 'title'] }, { mode: 'fulltext', columns: ['title', 'body'], language: 'simple', key: 'id' }) // true

 */
export function servesFulltext(index: SchemaSearchIndex, search: OwnSearch): boolean {
  if (index.mode !== 'fulltext' || index.expression !== undefined) return false
  // Each database's SQL reads only its own options: `fts` on SQLite, `vector` and `language` on PostgreSQL.
  if (index.fts !== undefined)
    return search.fts === index.fts && index.rowid === search.key && sameSet(index.columns, search.columns)
  const language = index.language === search.language
  if (index.vector !== undefined)
    return (
      search.vector === index.vector &&
      (index.unreadable !== undefined || (sameSet(index.columns, search.columns) && language))
    )
  if (index.unreadable !== undefined) return false
  if (index.language === undefined) return sameSet(index.columns, search.columns)
  // A PostgreSQL expression index is read only for the same expression: the columns in the same order.
  return search.vector === undefined && language && sameList(index.columns, search.columns)
}

/**
 * The indexes of a table that serve `search`: for `fulltext` each index {@link servesFulltext}; for `contains` the
 * pg_trgm indexes of the searched columns, empty unless every column has one.
 */
export function servingSearchIndexes(indexes: readonly SchemaSearchIndex[], search: OwnSearch): SchemaSearchIndex[] {
  if (search.mode === 'fulltext') return indexes.filter((index) => servesFulltext(index, search))
  const trigram = indexes.filter((index) => index.mode === 'contains' && index.unreadable === undefined)
  const serving = trigram.filter((index) => index.columns.some((column) => search.columns.includes(column)))
  const covered = search.columns.every((column) => serving.some((index) => index.columns.includes(column)))
  return covered ? serving : []
}

/** An index in a sentence: its name, what it indexes, and on what. */
export function describeSearchIndex(index: SchemaSearchIndex): string {
  const what = index.unreadable !== undefined ? index.unreadable : index.columns.join(', ')
  const language = index.language === undefined ? '' : ` ('${index.language}')`
  const on =
    index.vector !== undefined
      ? ` through the tsvector column ${index.vector}`
      : index.expression !== undefined
        ? ` on the expression ${index.expression}`
        : index.fts !== undefined
          ? ` (FTS5, rowid ${index.rowid ?? 'rowid'})`
          : ''
  return `${index.name} (${index.mode === 'contains' ? 'pg_trgm' : 'full-text'} over ${what}${language}${on})`
}
