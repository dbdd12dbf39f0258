import { QueryParamsError } from '../errors/query-params-error.ts'
import { databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import { paramPath } from '../parse/param-source.ts'
import { searchTerms } from '../parse/search-terms.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap, SearchDefinition } from '../relation-map.ts'
import type { PlannedSearch } from './planned-search.ts'
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
    return { mode: 'contains', terms, contains: terms.map((term) => findTerm(map, table, declared, term)) }
  const fulltext: PlannedSearch['fulltext'] = {
    columns: declared.columns.map((name) => databaseColumn(map, table, name)),
    language: declared.language ?? 'simple',
    key: primaryKeyColumns(map, table)[0] ?? 'id',
  }
  if (declared.vector !== undefined) fulltext.vector = declared.vector
  if (declared.fts !== undefined) fulltext.fts = declared.fts
  return { mode: 'fulltext', terms, contains: [], fulltext }
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
