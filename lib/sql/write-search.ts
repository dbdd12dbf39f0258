import { FULLTEXT_SQL, type FulltextTarget } from '../dialect/fulltext-sql.ts'
import type { PlannedFulltext, PlannedSearch } from '../validate/planned-search.ts'
import { SqlWriter } from './sql-writer.ts'
import type { Condition } from '../validate/query-plan.ts'
import { writeCondition } from './write-condition.ts'

/**
 * Writes the request's search as one parenthesised condition on the base table `ref`. `contains`: per term, the
 * `or` of its tests (a case-insensitive `like` on an own column, a relation filter for a `relation.column`, which
 * never multiplies rows), the terms `and`-ed. `fulltext`: the dialect's test on its full-text index, or `1 = 0`
 * when no term is left after its operators are escaped. Every value is bound; `out` must match case-insensitively.
 */
export function writeSearch(out: SqlWriter, search: PlannedSearch, ref: string, table: string): void {
  out.text('(')
  if (search.fulltext !== undefined) {
    const sql = FULLTEXT_SQL[out.dialect.name]
    const query = sql.query(search.terms)
    if (query === undefined) out.text('1 = 0')
    else out.bind(query, sql.match(fulltextTarget(out, search.fulltext, ref, table)))
  } else {
    const scope = new Set([ref])
    search.contains.forEach((anyOf, index) => {
      out.text(index === 0 ? '(' : ' and (')
      anyOf.forEach((condition, at) => {
        if (at > 0) out.text(' or ')
        writeTest(out, condition, ref, scope)
      })
      out.text(')')
    })
  }
  out.text(')')
}

/** Writes one test of a term: a relation filter as the dialect's key list where it has one (`FulltextSql.keyList`). */
function writeTest(out: SqlWriter, condition: Condition, ref: string, scope: Set<string>): void {
  const keyList = FULLTEXT_SQL[out.dialect.name].keyList
  if (keyList === undefined || condition.kind !== 'exists') return writeCondition(out, condition, ref, scope)
  const listed = new SqlWriter(out.names, { ...out.dialect, filteredRelation: 'in' }, out.like, out.guards)
  writeCondition(listed, condition, ref, scope)
  const key = out.names.column(ref, condition.relation.parentKey)
  const opening = `${key} in (`
  if (!listed.sql.startsWith(opening) || !listed.sql.endsWith(')')) return writeCondition(out, condition, ref, scope)
  out.text(keyList(key, listed.sql.slice(opening.length, -1)))
  for (const binding of listed.bindings) out.bindings.push(binding)
}

/** A `fulltext` search read through its full-text table joined into the page's `from` (`FulltextSql.joined`). */
export interface JoinedSearch {
  /** The join to add to the page: `inner join <fts> on <fts>.rowid = <key>`. */
  join: string
  /** The search's condition for the page's `where` (written like {@link writeSearch}'s, one bound value). */
  where: SqlWriter
  /** The base table's key column (database name), which orders read from {@link key} instead. */
  keyColumn: string
  /** The key as the full-text table gives it, in whose order the page reads. */
  key: string
  /** How well the joined row matches, higher better (no binding). */
  relevance: string
}

/**
 * The request's `fulltext` search as a join of its full-text table, or `undefined` where the dialect reads the
 * index from the `where` (`FulltextSql.joined`) or no term is left to search.
 */
export function joinedSearch(
  out: SqlWriter,
  search: PlannedSearch,
  ref: string,
  table: string,
): JoinedSearch | undefined {
  const sql = FULLTEXT_SQL[out.dialect.name]
  const joined = sql.joined
  const query = sql.query(search.terms)
  if (joined === undefined || search.fulltext === undefined || query === undefined) return undefined
  const target = fulltextTarget(out, search.fulltext, ref, table)
  out.text('(').bind(query, joined.match(target)).text(')')
  return {
    join: `inner join ${target.fts ?? ''} on ${joined.on(target)}`,
    where: out,
    keyColumn: search.fulltext.key,
    key: joined.key(target),
    relevance: joined.relevance(target),
  }
}

/** Writes how well a row of `ref` matches a `fulltext` search, higher better (`0` when no term is left to search). */
export function writeRelevance(out: SqlWriter, search: PlannedSearch, ref: string): void {
  const sql = FULLTEXT_SQL[out.dialect.name]
  const query = search.fulltext === undefined ? undefined : sql.query(search.terms)
  if (query === undefined || search.fulltext === undefined) out.text('0')
  else out.bind(query, sql.relevance(fulltextTarget(out, search.fulltext, ref, ref)))
}

function fulltextTarget(out: SqlWriter, fulltext: PlannedFulltext, ref: string, table: string): FulltextTarget {
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
