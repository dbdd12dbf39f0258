import { expect } from 'chai'
import { parseQueryParams } from '../../lib/index.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const ALL_KEYS = [
  'wheres',
  'columns',
  'with',
  'scopes',
  'relationsExists',
  'orders',
  'distinct',
  'offset',
  'limit',
  'page',
  'search',
  'cursor',
]

describe('parseQueryParams: parameter keys', () => {
  it('accepts relationsExists in camelCase and in snake_case (the client snake_cases keys)', () => {
    expect(parseQueryParams('relationsExists[0]=posts')).to.deep.equal({ relationsExists: ['posts'] })
    expect(parseQueryParams('relations_exists[0]=posts&relations_exists[1]=team')).to.deep.equal({
      relationsExists: ['posts', 'team'],
    })
  })

  it('accepts every parameter of the format', () => {
    const params = parseQueryParams(
      'wheres[0][column]=id&wheres[0][value]=1&columns[0]=id&with[0]=posts&scopes[0]=admins&relations_exists[0]=posts' +
        '&orders[0][column]=id&distinct[0]=team_id&offset=2&limit=3&page=4&search=knex&cursor=e30.x',
    )
    expect(Object.keys(params)).to.have.members(ALL_KEYS)
  })

  it('rejects one parameter sent in both spellings (invalid_syntax, param as sent second)', () => {
    expectQueryParamsError(() => parseQueryParams('relationsExists[0]=posts&relations_exists[0]=team'), {
      code: 'invalid_syntax',
      param: 'relations_exists',
    })
  })

  it("leaves unknown top-level keys alone: they are the application's own", () => {
    expect(parseQueryParams('custom=p&camel_key=1&with[0]=posts&filter[x]=1')).to.deep.equal({ with: ['posts'] })
  })

  it('does not even read malformed unknown keys', () => {
    expect(parseQueryParams('a[b=1&[x]=2&limit=5')).to.deep.equal({ limit: 5 })
  })

  it('rejects unknown top-level keys with options.strict (unknown_parameter, allowed = the format keys)', () => {
    expectQueryParamsError(() => parseQueryParams('with[0]=posts&custom=p', { strict: true }), {
      code: 'unknown_parameter',
      param: 'custom',
      allowed: ALL_KEYS,
    })
    expect(parseQueryParams('relations_exists[0]=posts', { strict: true })).to.deep.equal({
      relationsExists: ['posts'],
    })
  })

  it('keeps camelCase column values as sent (they are matched against the map later)', () => {
    expect(parseQueryParams('columns[0]=createdAt&orders[0][column]=createdAt')).to.deep.equal({
      columns: ['createdAt'],
      orders: [{ column: 'createdAt', direction: 'asc' }],
    })
  })
})
