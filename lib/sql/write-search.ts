import { FULLTEXT_SQL } from '../dialect/fulltext-sql.ts'
import { fulltextTarget, writeFulltextTest } from './write-fulltext-test.ts'
import type { PlannedSearch } from '../validate/planned-search.ts'
import type { SqlWriter } from './sql-writer.ts'
import { listedStyle, type ConditionStyle } from '../plan/condition-style.ts'
import type { Condition } from '../validate/query-plan.ts'
import { writeCondition } from './write-condition.ts'

/**
 * Writes the request's search as one parenthesised condition on the base table `ref`. `contains`: per term, the
 * `or` of its tests (a case-insensitive `like` on an own column, a relation filter for a `relation.column`, which
 * never multiplies rows), the terms `and`-ed. `fulltext`: the dialect's test on the table's full-text index, `or`
 * a relation filter per relation path whose related table's own index finds every term (`1 = 0` for a test when no
 * term is left after its operators are escaped). Every value is bound; `out` must match case-insensitively. Its
 * relation filters are written as `style` says.
 */
export function writeSearch(
  out: SqlWriter,
  search: PlannedSearch,
  ref: string,
  table: string,
  style: ConditionStyle,
): void {
  out.text('(')
  if (search.fulltext !== undefined) {
    const scope = new Set([ref])
    let first = true
    if (search.fulltext.columns.length > 0) {
      writeFulltextTest(out, search.fulltext, search.terms, ref, table)
      first = false
    }
    for (const condition of search.related) {
      if (!first) out.text(' or ')
      writeTest(out, condition, ref, scope, style)
      first = false
    }
  } else {
    const scope = new Set([ref])
    search.contains.forEach((anyOf, index) => {
      out.text(index === 0 ? '(' : ' and (')
      anyOf.forEach((condition, at) => {
        if (at > 0) out.text(' or ')
        writeTest(out, condition, ref, scope, style)
      })
      out.text(')')
    })
  }
  out.text(')')
}

/** Writes one test of a term: a relation filter as the dialect's key list where it has one (`FulltextSql.keyList`). */
function writeTest(out: SqlWriter, condition: Condition, ref: string, scope: Set<string>, style: ConditionStyle): void {
  const keyList = FULLTEXT_SQL[out.dialect.name].keyList
  if (keyList === undefined || condition.kind !== 'exists') {
    writeCondition(out, condition, ref, scope, style)
    return
  }
  const listed = out.fresh()
  writeCondition(listed, condition, ref, scope, listedStyle(style))
  const key = out.names.column(ref, condition.relation.parentKey)
  const opening = `${key} in (`
  if (!listed.sql.startsWith(opening) || !listed.sql.endsWith(')')) {
    writeCondition(out, condition, ref, scope, style)
    return
  }
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
  const fulltext = search.fulltext
  if (joined === undefined || fulltext === undefined || query === undefined) return undefined
  if (fulltext.columns.length === 0 || search.related.length > 0) return undefined
  const target = fulltextTarget(out, fulltext, ref, table)
  out.text('(').bind(query, joined.match(target)).text(')')
  return {
    join: `inner join ${target.fts ?? ''} on ${joined.on(target)}`,
    where: out,
    keyColumn: fulltext.key,
    key: joined.key(target),
    relevance: joined.relevance(target),
  }
}

/** Writes how well a row of `ref` matches a `fulltext` search, higher better (`0` when no term is left to search). */
export function writeRelevance(out: SqlWriter, search: PlannedSearch, ref: string): void {
  const sql = FULLTEXT_SQL[out.dialect.name]
  const query = search.fulltext === undefined ? undefined : sql.query(search.terms)
  if (query === undefined || search.fulltext === undefined || search.fulltext.columns.length === 0) out.text('0')
  else out.bind(query, sql.relevance(fulltextTarget(out, search.fulltext, ref, ref)))
}
