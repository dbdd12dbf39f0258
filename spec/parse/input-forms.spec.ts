import { expect } from 'chai'
import querystring from 'node:querystring'
import qs from 'qs'
import { parseQueryParams } from '../../lib/index.ts'
import type { QueryParams } from '../../lib/query-params.ts'
import { stringifyLikeTheClient } from './support/client-requests.ts'

/** What the reference client (qs.stringify, indices, strictNullHandling, encodeValuesOnly) sends for one request. */
const CLIENT_QUERY =
  'wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&wheres[0][boolean]=and' +
  '&wheres[1][column]=published_at&wheres[1][operator]=%3D&wheres[1][value]=null&wheres[1][boolean]=or' +
  '&wheres[2][column]=id&wheres[2][operator]=in&wheres[2][value][0]=1&wheres[2][value][1]=5&wheres[2][boolean]=and' +
  '&columns[0]=id&columns[1]=title&with[0]=author&with[1]=tags&relations_exists[0]=comments' +
  '&orders[0][column]=views&orders[0][direction]=desc&limit=10&page=2'

const EXPECTED: QueryParams = {
  wheres: [
    { column: 'title', operator: 'like', value: '%sql%', boolean: 'and' },
    { column: 'published_at', operator: '=', value: 'null', boolean: 'or' },
    { column: 'id', operator: 'in', value: ['1', '5'], boolean: 'and' },
  ],
  columns: ['id', 'title'],
  with: ['author', 'tags'],
  relationsExists: ['comments'],
  orders: [{ column: 'views', direction: 'desc' }],
  limit: 10,
  page: 2,
}

describe('parseQueryParams: input forms', () => {
  it('reads the raw query string the reference client sends (no leading ?)', () => {
    expect(parseQueryParams(CLIENT_QUERY)).to.deep.equal(EXPECTED)
  })

  it('reads the query string with a leading ?', () => {
    expect(parseQueryParams(`?${CLIENT_QUERY}`)).to.deep.equal(EXPECTED)
  })

  it('reads a whole URL path such as /posts?… (req.url)', () => {
    expect(parseQueryParams(`/posts?${CLIENT_QUERY}`)).to.deep.equal(EXPECTED)
  })

  it('reads an absolute URL and ignores its #fragment', () => {
    expect(parseQueryParams(`https://api.example.com/posts?${CLIENT_QUERY}#top`)).to.deep.equal(EXPECTED)
  })

  it('reads a path without a query as no parameters', () => {
    expect(parseQueryParams('/posts')).to.deep.equal({})
    expect(parseQueryParams('')).to.deep.equal({})
  })

  it('reads URLSearchParams', () => {
    expect(parseQueryParams(new URLSearchParams(CLIENT_QUERY))).to.deep.equal(EXPECTED)
  })

  it('reads the flat bracket-keyed object of node:querystring (Express 5, Fastify default)', () => {
    const flat = querystring.parse(CLIENT_QUERY)
    expect(flat).to.have.property('wheres[0][column]', 'title')
    expect(parseQueryParams(flat)).to.deep.equal(EXPECTED)
  })

  it('reads repeated flat keys (with[]=a&with[]=b) as a list', () => {
    expect(parseQueryParams(querystring.parse('with[]=author&with[]=tags'))).to.deep.equal({ with: ['author', 'tags'] })
    expect(parseQueryParams('with[]=author&with[]=tags')).to.deep.equal({ with: ['author', 'tags'] })
  })

  it('reads an object already parsed by qs (strictNullHandling)', () => {
    expect(parseQueryParams(qs.parse(CLIENT_QUERY, { strictNullHandling: true }))).to.deep.equal(EXPECTED)
  })

  it('reads what the client encodes with qs.stringify, round trip', () => {
    const sent = stringifyLikeTheClient({
      wheres: [
        { column: 'title', operator: 'like', value: '%sql%', boolean: 'and' },
        { column: 'published_at', operator: '=', value: 'null', boolean: 'or' },
        { column: 'id', operator: 'in', value: [1, 5], boolean: 'and' },
      ],
      columns: ['id', 'title'],
      with: ['author', 'tags'],
      relations_exists: ['comments'],
      orders: [{ column: 'views', direction: 'desc' }],
      limit: 10,
      page: 2,
    })
    expect(sent).to.equal(CLIENT_QUERY)
  })

  it('turns qs index-keyed objects (past its arrayLimit of 20) back into ordered lists', () => {
    const wheres = Array.from({ length: 25 }, (_, index) => ({
      column: 'id',
      operator: '!=',
      value: String(index + 1),
      boolean: 'and',
    }))
    const values = Array.from({ length: 30 }, (_, index) => String(index + 1))
    const sent = stringifyLikeTheClient({
      wheres: [...wheres, { column: 'user_id', operator: 'in', value: values, boolean: 'or' }],
    })
    const parsed = qs.parse(sent, { strictNullHandling: true })
    expect(Array.isArray(parsed.wheres)).to.equal(false)

    const params = parseQueryParams(parsed)
    expect(params.wheres).to.have.length(26)
    expect(params.wheres?.slice(0, 25).map((where) => where.value)).to.deep.equal(wheres.map((where) => where.value))
    expect(params.wheres?.[25]).to.deep.equal({ column: 'user_id', operator: 'in', value: values, boolean: 'or' })
  })

  it('orders index-keyed lists numerically, not as text (2 before 10)', () => {
    const params = parseQueryParams({ with: { '10': 'tags', '2': 'author', '0': 'comments' } })
    expect(params.with).to.deep.equal(['comments', 'author', 'tags'])
  })

  it('reads a bare key (no =) as null from a raw string and from qs strictNullHandling', () => {
    const sent = stringifyLikeTheClient({ wheres: [{ column: 'body', operator: '=', value: null, boolean: 'and' }] })
    expect(sent).to.equal('wheres[0][column]=body&wheres[0][operator]=%3D&wheres[0][value]&wheres[0][boolean]=and')
    const expected: QueryParams = { wheres: [{ column: 'body', operator: '=', value: null, boolean: 'and' }] }
    expect(parseQueryParams(sent)).to.deep.equal(expected)
    expect(parseQueryParams(qs.parse(sent, { strictNullHandling: true }))).to.deep.equal(expected)
  })

  it("cannot see a bare key's null through URLSearchParams or node:querystring: both decode it as '' (use the string 'null')", () => {
    const sent = 'wheres[0][column]=body&wheres[0][value]'
    const empty: QueryParams = { wheres: [{ column: 'body', operator: '=', value: '', boolean: 'and' }] }
    expect(parseQueryParams(new URLSearchParams(sent))).to.deep.equal(empty)
    expect(parseQueryParams(querystring.parse(sent))).to.deep.equal(empty)
  })

  it('decodes percent-escapes and + in values as a form does (%2B is a plus, + a space)', () => {
    const params = parseQueryParams(
      'wheres[0][column]=email&wheres[0][value]=judy%2Bnews%40example.com&wheres[1][column]=title&wheres[1][value]=Hello+World',
    )
    expect(params.wheres?.map((where) => where.value)).to.deep.equal(['judy+news@example.com', 'Hello World'])
  })

  it('accepts numbers in an object from a framework that coerces them', () => {
    expect(parseQueryParams({ limit: 10, offset: 0, page: 3 })).to.deep.equal({ limit: 10, offset: 0, page: 3 })
  })
})
