import { FULLTEXT_SQL, type FulltextTarget } from '../dialect/fulltext-sql.ts'
import type { PlannedFulltext } from '../validate/planned-search.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Writes the test of `fulltext`'s index (the table `ref` names) for every term: the dialect's `match` with the terms
 * as its one bound value, or `1 = 0` when no term is left once the database's operators are escaped.
 */
export function writeFulltextTest(
  out: SqlWriter,
  fulltext: PlannedFulltext,
  terms: readonly string[],
  ref: string,
  table: string,
): void {
  const sql = FULLTEXT_SQL[out.dialect.name]
  const query = sql.query(terms)
  if (query === undefined) out.text('1 = 0')
  else out.bind(query, sql.match(fulltextTarget(out, fulltext, ref, table)))
}

/** The quoted names `fulltext`'s SQL is written with, `ref` naming its table. */
export function fulltextTarget(out: SqlWriter, fulltext: PlannedFulltext, ref: string, table: string): FulltextTarget {
  const { names } = out
  const target: FulltextTarget = {
    columns: fulltext.columns.map((column) => names.column(ref, column)),
    key: names.column(ref, fulltext.key),
    language: fulltext.language,
  }
  if (fulltext.vector !== undefined) target.vector = names.column(ref, fulltext.vector)
  if (fulltext.fts !== undefined) target.fts = names.table(fulltext.fts, fulltext.fts)
  else if (out.dialect.name === 'sqlite') {
    const create = FULLTEXT_SQL.sqlite.index(table, fulltext.columns, { ...fulltext })
    throw new Error(
      `knex-query-params: ${table}.search.fts: a fulltext search on SQLite reads an FTS5 table; declare it (${create})`,
    )
  }
  return target
}
