import { expect } from 'chai'
import { requestBinding } from '../../lib/cursor/request-binding.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { QueryParams } from '../../lib/query-params.ts'

/** What a cursor is bound to: every parsed key but the page's own, the table and the guard context, canonically. */
describe('requestBinding', () => {
  const bind = (query: string, table = 'posts', context?: unknown): string =>
    requestBinding(table, parseQueryParams(query), context)

  it('ignores cursor, limit, page and offset, the order of keys and their spelling', () => {
    const base = bind('relations_exists[0]=tags&orders[0][column]=id')
    expect(bind('orders[0][column]=id&relationsExists[0]=tags&limit=5')).to.equal(base)
    expect(bind('relations_exists[0]=tags&orders[0][column]=id&page=3&offset=2')).to.equal(base)
  })

  it('changes with any other key, the table or the context', () => {
    const base = bind('orders[0][column]=id')
    const others = [
      bind('orders[0][column]=id&orders[0][direction]=desc'),
      bind('orders[0][column]=id&wheres[0][column]=id&wheres[0][value]=1'),
      bind('orders[0][column]=id&scopes[0]=published'),
      bind('orders[0][column]=id&distinct[0]=id'),
      bind('orders[0][column]=id&columns[0]=id'),
      bind('orders[0][column]=id', 'users'),
      bind('orders[0][column]=id', 'posts', { tenantId: 1 }),
      bind('orders[0][column]=id', 'posts', { tenantId: 1n }),
    ]
    expect(new Set([base, ...others]).size).to.equal(others.length + 1)
    expect(bind('orders[0][column]=id', 'posts', { a: 1, b: 2 })).to.equal(
      bind('orders[0][column]=id', 'posts', { b: 2, a: 1 }),
    )
  })

  it('binds a key added to QueryParams later (a search box) without a change to the cursor code', () => {
    const params = parseQueryParams('orders[0][column]=id')
    const searched = { ...params, search: 'lamp' } as QueryParams
    expect(requestBinding('posts', searched, undefined)).to.not.equal(requestBinding('posts', params, undefined))
    expect(requestBinding('posts', { ...searched }, undefined)).to.equal(requestBinding('posts', searched, undefined))
  })
})
