import { expect } from 'chai'
import * as http from '../../lib/http.ts'
import * as root from '../../lib/index.ts'
import * as introspect from '../../lib/introspect.ts'
import * as openapi from '../../lib/openapi.ts'

/** Values of `/http` and `/introspect` the root re-exported before they moved; deprecated for one minor version. */
const DEPRECATED_AT_ROOT = [
  'BodyTooLargeError',
  'DEFAULT_SECRET_COLUMNS',
  'KNEX_MIGRATION_TABLES',
  'RELATION_MAP_PROBLEM_LEVELS',
  'checkRelationMap',
  'errorResponse',
  'handleClientError',
  'introspectRelationMap',
  'introspectRelationMapWithNotices',
  'isFormContentType',
  'normalizeContentType',
  'problemResponse',
  'queryParamsFromRequest',
  'readFormBody',
  'readSchema',
  'readsFormBody',
  'relationMapFromSchema',
  'tooLargeResponse',
]

/** What a route handler needs, and only that (besides the deprecated re-exports above). */
const ROUTE_HANDLER_API = [
  'OPERATORS',
  'QueryParamsError',
  'QueryTimeoutError',
  'TransientDatabaseError',
  'applyQueryParams',
  'clientColumn',
  'columnType',
  'configureSqliteReads',
  'countQuery',
  'cursorLinks',
  'cursorPaginate',
  'databaseColumn',
  'defineRelationMap',
  'estimatedCount',
  'ESTIMATE_THRESHOLD',
  'loadRelations',
  'paginate',
  'parseQueryParams',
  'primaryKeyColumns',
  'transientDatabaseError',
]

describe('package entries by reader', () => {
  it('knex-query-params/http and /introspect share no value export', () => {
    const shared = Object.keys(http).filter((name) => name in introspect)
    expect(shared).to.deep.equal([])
  })

  it('knex-query-params/openapi is its own reader: openApiDocument and the error codes, none of them at the root, /http or /introspect', () => {
    expect(Object.keys(openapi).sort()).to.deep.equal(['QUERY_PARAMS_ERROR_CODES', 'openApiDocument'])
    const elsewhere = Object.keys(openapi).filter((name) => name in root || name in http || name in introspect)
    expect(elsewhere).to.deep.equal([])
  })

  it('the root re-exports the values that were there before /http and /introspect, as the same objects (deprecated for one minor version), and no newer one', () => {
    const moved = { ...http, ...introspect } as Record<string, unknown>
    for (const name of DEPRECATED_AT_ROOT) {
      expect(name in moved, `${name} in /http or /introspect`).to.equal(true)
      expect((root as Record<string, unknown>)[name], name).to.equal(moved[name])
    }
    const newer = Object.keys(moved).filter((name) => !DEPRECATED_AT_ROOT.includes(name))
    expect(
      newer.filter((name) => name in root),
      'names new in /http or /introspect re-exported at the root',
    ).to.deep.equal([])
  })

  it('the root holds the route-handler API besides those re-exports', () => {
    const moved = new Set([...Object.keys(http), ...Object.keys(introspect)])
    const own = Object.keys(root).filter((name) => !moved.has(name))
    expect(own).to.include.members(ROUTE_HANDLER_API)
    expect(
      own.filter((name) => !ROUTE_HANDLER_API.includes(name)),
      'root values outside the route-handler API',
    ).to.deep.equal([])
  })
})
