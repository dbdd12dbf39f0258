import { QueryParamsError } from '../errors/query-params-error.ts'
import { databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import { paramPath } from '../parse/param-source.ts'
import { searchTerms } from '../parse/search-terms.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap, SearchDefinition } from '../relation-map.ts'
import type { PlannedFulltext, PlannedSearch } from './planned-search.ts'
import type { Condition } from './query-plan.ts'
import { resolveWhere } from './resolve-condition.ts'

/** A declared search path is the server's, so the client's relation depth cap does not apply to it. */
const DECLARED_DEPTH = Number.MAX_SAFE_INTEGER

/**
 * The request's `search` against the declaration of `table`, or `undefined` without a search text.
 *
 * @throws {QueryParamsError} `search_not_allowed` when the table declares no search.
 */
export function resolveSearch(params: QueryParams, table: string, map: RelationMap): PlannedSearch | undefined {
  if (params.search === undefined) return undefined
  const declared = map[table]?.search
  if (declared === undefined) {
    const param = paramPath(params, 'search')
    throw new QueryParamsError(`Parameter '${param}': ${table} cannot be searched.`, {
      code: 'search_not_allowed',
      param,
    })
  }
  const terms = searchTerms(params.search)
  if (declared.mode === 'contains')
    return {
      mode: 'contains',
      terms,
      contains: terms.map((term) => findTerm(map, table, declared, term)),
      related: [],
    }
  const own = declared.columns.filter((column) => !column.includes('.'))
  const fulltext = plannedFulltext(map, table, own, declared)
  const byPath = new Map<string, string>()
  for (const column of declared.columns) {
    const path = relationPath(column)
    if (path !== '' && !byPath.has(path)) byPath.set(path, column)
  }
  const related = [...byPath.values()].map((column) => relatedFulltext(map, table, column, terms))
  return { mode: 'fulltext', terms, contains: [], fulltext, related }
}

function plannedFulltext(
  map: RelationMap,
  table: string,
  columns: string[],
  declared: SearchDefinition,
): PlannedFulltext {
  const fulltext: PlannedFulltext = {
    table,
    columns: columns.map((name) => databaseColumn(map, table, name)),
    language: declared.language ?? 'simple',
    key: primaryKeyColumns(map, table)[0] ?? 'id',
  }
  if (declared.vector !== undefined) fulltext.vector = declared.vector
  if (declared.fts !== undefined) fulltext.fts = declared.fts
  return fulltext
}

/** `author.profile.bio` → `author.profile`; `''` for an own column. */
function relationPath(column: string): string {
  return column.includes('.') ? column.slice(0, column.lastIndexOf('.')) : ''
}

/**
 * The relation filter through the relation path of `column` whose related rows' own `fulltext` search (its table's
 * declaration, which the map check requires) finds every term: the filter of a `like` on `column`, its innermost
 * test replaced.
 */
function relatedFulltext(map: RelationMap, table: string, column: string, terms: string[]): Condition {
  const paths = { column: 'search', operator: 'search', value: () => 'search' }
  const where = { column, operator: 'like', value: '%', boolean: 'and' } as const
  return replaceInnermost(map, resolveWhere(map, table, where, paths, DECLARED_DEPTH), terms)
}

function replaceInnermost(map: RelationMap, condition: Condition, terms: string[]): Condition {
  if (condition.kind === 'exists' && condition.inner !== null && condition.inner.kind !== 'test')
    return { ...condition, inner: replaceInnermost(map, condition.inner, terms) }
  if (condition.kind !== 'exists') throw new Error(`knex-query-params: a search path resolved to a ${condition.kind}`)
  const related = condition.relation.table
  const declared = map[related]?.search
  if (declared === undefined) throw new Error(`knex-query-params: ${related} declares no search`)
  return {
    ...condition,
    inner: { kind: 'fulltext', fulltext: plannedFulltext(map, related, [...declared.columns], declared), terms },
  }
}

/** The conditions any of which finds `term` (case-insensitively, `%`, `_` and `\` literal) in a declared column. */
function findTerm(map: RelationMap, table: string, declared: SearchDefinition, term: string): Condition[] {
  const pattern = `%${likeLiteral(term)}%`
  return declared.columns.map((column) => {
    if (!column.includes('.'))
      return { kind: 'test', table, column: databaseColumn(map, table, column), test: { op: 'like', pattern } }
    const paths = { column: 'search', operator: 'search', value: () => 'search' }
    return resolveWhere(map, table, { column, operator: 'like', value: pattern, boolean: 'and' }, paths, DECLARED_DEPTH)
  })
}

/** `text` as a `like` pattern matching itself: `\`, `%` and `_` escaped with a backslash. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`)
}
