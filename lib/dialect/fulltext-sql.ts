import type { DialectName } from './dialect.ts'

/** The quoted names a full-text test is written with. */
export interface FulltextTarget {
  /** The base table's searched columns, each qualified and quoted (`"posts"."title"`). */
  columns: string[]
  /** The base table's primary key, qualified and quoted. */
  key: string
  /** PostgreSQL's text search configuration, a plain name the map check allowed. */
  language: string
  /** PostgreSQL: the stored `tsvector` column, qualified and quoted. */
  vector?: string
  /** SQLite: the FTS5 table, quoted. */
  fts?: string
}

/**
 * How one database writes a `fulltext` search on its own index. `query` turns the terms into the one value bound
 * (operators of the database's syntax escaped), or `undefined` when no term is left to search, which matches no
 * row; `match` and `relevance` hold one `?` for it. A higher relevance is a better match on every database.
 */
export interface FulltextSql {
  query(terms: readonly string[]): string | undefined
  match(target: FulltextTarget): string
  relevance(target: FulltextTarget): string
  /** The index a database administrator creates so `match` reads it (`table` and `columns` unquoted). */
  index(
    table: string,
    columns: readonly string[],
    options: { language: string; vector?: string; fts?: string; key: string },
  ): string
  /** The index serving a `contains` search of `column`, or `undefined` where none can (`like '%…%'` reads all rows). */
  containsIndex(table: string, column: string): string | undefined
  /** A statement that prices table scans out for the transaction, so a plan shows whether an index can serve at all. */
  readonly avoidScans?: string
  /** Whether plan lines (`Dialect.explain`) read every row of `table`. */
  scans(lines: readonly string[], table: string): boolean
  /**
   * How a `contains` search tests a relation column, given the key and the subquery listing the related rows'
   * keys: `undefined` keeps the dialect's relation filter. PostgreSQL takes `key = any(array(select …))`, an
   * uncorrelated list computed once, so that the `or` of a term's tests becomes a BitmapOr of the columns' pg_trgm
   * indexes and the key's B-tree (as `key in (select …)` it filters every row: ×20 for a rare word, figure 14).
   */
  keyList?(key: string, select: string): string
  /**
   * A full-text table joined into the page's `from` (SQLite's FTS5): the page then reads the matches in the
   * full-text table's own order and stops at the limit, where `match`'s key list holds every match before the page
   * (×45–59 for a word in 10% of 1M rows, figure 14). `undefined` where the index is read from the `where`.
   */
  joined?: FulltextJoin
}

/** How a database whose full-text index is a table of its own joins it to the base table (see `FulltextSql.joined`). */
export interface FulltextJoin {
  /** The join's condition: the full-text row of the base row (one at most: the rows never multiply). */
  on(target: FulltextTarget): string
  /** The test in the page's `where`, with one `?` for the query. */
  match(target: FulltextTarget): string
  /** The base table's key read from the full-text table, in whose order it reads (an order by it stops early). */
  key(target: FulltextTarget): string
  /** How well the row matches, higher better, read from the joined row (no `?`). */
  relevance(target: FulltextTarget): string
}

/** PostgreSQL's document: the stored `tsvector`, or the expression an expression GIN index is created on. */
function postgresDocument(target: Pick<FulltextTarget, 'columns' | 'language' | 'vector'>): string {
  if (target.vector !== undefined) return target.vector
  const text = target.columns.map((column) => `coalesce(${column}, '')`).join(` || ' ' || `)
  return `to_tsvector('${target.language}'::regconfig, ${text})`
}

const MYSQL_OPERATORS = /[+\-<>()~*"@]+/g

/** The full-text SQL of each database. */
export const FULLTEXT_SQL: Readonly<Record<DialectName, FulltextSql>> = {
  postgres: {
    // Every term quoted: websearch_to_tsquery then reads `or`, `-` and quotes inside it as words, never as operators.
    query: (terms) =>
      terms.length === 0 ? undefined : terms.map((term) => `"${term.replaceAll('"', ' ')}"`).join(' '),
    match: (target) => `${postgresDocument(target)} @@ websearch_to_tsquery('${target.language}'::regconfig, ?)`,
    relevance: (target) =>
      `ts_rank(${postgresDocument(target)}, websearch_to_tsquery('${target.language}'::regconfig, ?))`,
    index: (table, columns, { language, vector }) => {
      if (vector !== undefined) return `create index ${table}_${vector} on ${table} using gin (${vector})`
      return (
        `create index ${table}_search on ${table} using gin ` +
        `(${postgresDocument({ columns: [...columns], language })})`
      )
    },
    containsIndex: (table, column) =>
      `create extension pg_trgm; create index ${table}_${column}_trgm on ${table} using gin (${column} gin_trgm_ops)`,
    avoidScans: 'set local enable_seqscan = off',
    keyList: (key, select) => `${key} = any(array(${select}))`,
    scans: (lines, table) => lines.some((line) => new RegExp(`Seq Scan on "?${table}"?( |$)`).test(line)),
  },
  mysql: {
    query: (terms) => {
      const required = terms
        .map((term) => term.replace(MYSQL_OPERATORS, ' ').trim().replace(/\s+/g, ' '))
        .filter((term) => term !== '')
        .map((term) => (term.includes(' ') ? `+"${term}"` : `+${term}`))
      return required.length === 0 ? undefined : required.join(' ')
    },
    match: (target) => `match (${target.columns.join(', ')}) against (? in boolean mode)`,
    relevance: (target) => `match (${target.columns.join(', ')}) against (? in boolean mode)`,
    index: (table, columns) => `create fulltext index ${table}_search on ${table} (${columns.join(', ')})`,
    containsIndex: () => undefined,
    scans: (lines, table) => lines.some((line) => line.includes(`"table":"${table}"`) && line.includes('"type":"ALL"')),
  },
  sqlite: {
    // Each term an FTS5 string ("…", a quote doubled): a phrase of its tokens, no operator, all terms required.
    query: (terms) =>
      terms.length === 0 ? undefined : terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' '),
    match: (target) => `${target.key} in (select rowid from ${target.fts ?? ''} where ${target.fts ?? ''} match ?)`,
    relevance: (target) => {
      const fts = target.fts ?? ''
      return `(select -bm25(${fts}) from ${fts} where ${fts} match ? and rowid = ${target.key})`
    },
    index: (table, columns, { fts, key }) => {
      const content = `content='${table}', content_rowid='${key}'`
      return `create virtual table ${fts ?? `${table}_fts`} using fts5(${columns.join(', ')}, ${content})`
    },
    containsIndex: () => undefined,
    // The FTS5 table in the page's `from`, read in rowid order (FTS5 serves `order by rowid` and stops at the limit);
    // `rank` is bm25 of the match, lower better.
    joined: {
      on: (target) => `${target.fts ?? ''}.rowid = ${target.key}`,
      match: (target) => `${target.fts ?? ''} match ?`,
      key: (target) => `${target.fts ?? ''}.rowid`,
      relevance: (target) => `-${target.fts ?? ''}.rank`,
    },
    // A full-text search reads its FTS5 table: SQLite may then scan a small base table and probe the rowid list.
    scans: (lines, table) =>
      !lines.some((line) => line.includes('VIRTUAL TABLE INDEX')) &&
      lines.some((line) => line === `SCAN ${table}` || line.startsWith(`SCAN ${table} `)),
  },
}
