import { expect } from 'chai'
import * as http from '../../lib/http.ts'
import * as root from '../../lib/index.ts'
import * as introspect from '../../lib/introspect.ts'

/** What a route handler needs, and only that (besides the deprecated re-exports below). */
const ROUTE_HANDLER_API = [
  'OPERATORS',
  'QueryParamsError',
  'applyQueryParams',
  'clientColumn',
  'columnType',
  'countQuery',
  'databaseColumn',
  'defineRelationMap',
  'estimatedCount',
  'ESTIMATE_THRESHOLD',
  'loadRelations',
  'paginate',
  'parseQueryParams',
  'primaryKeyColumns',
]

describe('package entries by reader', () => {
  it('knex-query-params/http and /introspect share no value export', () => {
    const shared = Object.keys(http).filter((name) => name in introspect)
    expect(shared).to.deep.equal([])
  })

  it('the root re-exports every value of /http and /introspect as the same object (deprecated for one minor version)', () => {
    for (const [name, value] of [...Object.entries(http), ...Object.entries(introspect)]) {
      expect(name in root, `${name} at the root`).to.equal(true)
      expect((root as Record<string, unknown>)[name], name).to.equal(value)
    }
  })

  it('the root holds the route-handler API besides those re-exports', () => {
    const moved = new Set([...Object.keys(http), ...Object.keys(introspect)])
    const own = Object.keys(root).filter((name) => !moved.has(name))
    expect(own).to.include.members(ROUTE_HANDLER_API)
    expect(own.filter((name) => !ROUTE_HANDLER_API.includes(name)), 'root values outside the route-handler API').to.deep.equal([])
  })
})
