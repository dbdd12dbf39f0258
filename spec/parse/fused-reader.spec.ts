import { expect } from 'chai'
import fc from 'fast-check'
import qs from 'qs'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { parseQueryParams } from '../../lib/index.ts'
import { PARSE_DEFAULTS, withDefaults, type ParseOptions } from '../../lib/options.ts'
import { paramPath } from '../../lib/parse/param-source.ts'
import { PARAMETER_KEYS } from '../../lib/parse/parameter-keys.ts'
import { paramsOfRaw } from '../../lib/parse/parse-query-params.ts'
import { parseQueryString } from '../../lib/parse/parse-query-string.ts'
import { readClientQuery } from '../../lib/parse/read-client-query.ts'
import type { QueryParamKey, QueryParams } from '../../lib/query-params.ts'
import { clientRequests, scalarOf, stringifyLikeTheClient } from './support/client-requests.ts'

/**
 * The fused reader (`readClientQuery`) against the general reader it short-cuts (`parseQueryString` → the raw
 * object → `paramsOfRaw`) and against `qs`, on what the reference client sends and on strings it does not: where
 * the fused reader takes a query, it gives the general reader's params and the same client paths; where it does
 * not, `parseQueryParams` answers as the general reader does (params or the same error). Seeded and bounded.
 */

const SEED = 20_261_126
const RUNS = 2500
const QS_OPTIONS = { strictNullHandling: true, arrayLimit: 1_000_000, depth: 5, parameterLimit: 2000 } as const

type Outcome = { params: QueryParams } | { error: { code: string; param: string | undefined; message: string } }

function outcome(read: () => QueryParams): Outcome {
  try {
    return { params: read() }
  } catch (error) {
    if (!(error instanceof QueryParamsError)) throw error
    return { error: { code: error.code, param: error.param, message: error.message } }
  }
}

/** The general reader alone, as `parseQueryParams` runs it on a string the fused reader does not take. */
function general(query: string, options: ParseOptions = {}): Outcome {
  const settings = withDefaults(PARSE_DEFAULTS, options)
  const keep = settings.strict ? undefined : (name: string) => PARAMETER_KEYS.has(name)
  return outcome(() => paramsOfRaw(parseQueryString(query, settings.depth, settings.parameterLimit, keep), settings))
}

const LISTS: readonly QueryParamKey[] = ['columns', 'with', 'scopes', 'relationsExists', 'distinct']

/** Every client path the params can name (`wheres[i][field]`, `wheres[i][value][j]`, `orders[i]`, `with[i]`…). */
function paths(params: QueryParams): string[] {
  const all: string[] = []
  for (const [i, where] of (params.wheres ?? []).entries()) {
    for (const field of ['column', 'operator', 'value', 'boolean']) all.push(paramPath(params, 'wheres', i, field))
    if (Array.isArray(where.value))
      for (const j of where.value.keys()) all.push(paramPath(params, 'wheres', i, 'value', j))
  }
  for (const i of (params.orders ?? []).keys()) all.push(paramPath(params, 'orders', i, 'direction'))
  for (const key of LISTS)
    for (const i of ((params[key] as string[] | undefined) ?? []).keys()) all.push(paramPath(params, key, i))
  for (const key of ['limit', 'page', 'offset', 'search', 'cursor'] as const) all.push(paramPath(params, key))
  return all
}

let taken = 0
let compared = 0

/** The fused reader agrees with the general reader, and `parseQueryParams` with both. */
function agrees(query: string, options: ParseOptions = {}): void {
  compared++
  const expected = general(query, options)
  const fused = readClientQuery(query, withDefaults(PARSE_DEFAULTS, options))
  if (fused !== undefined) {
    taken++
    expect('params' in expected, `the general reader rejects ${JSON.stringify(query)}`).to.equal(true)
    const params = (expected as { params: QueryParams }).params
    expect(fused, query).to.deep.equal(params)
    expect(paths(fused), query).to.deep.equal(paths(params))
  }
  const actual = outcome(() => parseQueryParams(query, options))
  expect(actual, query).to.deep.equal(expected)
  if ('params' in actual && 'params' in expected) expect(paths(actual.params)).to.deep.equal(paths(expected.params))
}

const text = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('', ' ', 'a b', '%', '100%', '+', 'a]=b', ']', '[x]', '&', '=', 'é', '😀', 'null', '\\%', '%_%'),
)
const scalar = scalarOf(text)
const clientRequest = clientRequests(
  text,
  ['id', 'name', 'created_at', 'posts.title', ' team.name ', '*'],
  { wheres: 12, values: 4, lists: 3, orders: 3, limit: 200 },
  { search: text, other: scalar },
)

/** A request the fused reader should take: known keys, valid shapes (values of any text, including escapes). */
const plainName = fc.constantFrom('id', 'name', 'created_at', 'posts.title', 'team.name', 'posts.comments.body')
const listValue = fc.array(scalar, { minLength: 2, maxLength: 2 })
const validWhere = fc.oneof(
  fc.record({
    column: plainName,
    operator: fc.constantFrom('=', '!=', '<', '>=', 'like', 'LIKE', '<>'),
    value: scalar,
    boolean: fc.constantFrom('and', 'or'),
  }),
  fc.record({
    column: plainName,
    operator: fc.constantFrom('in', 'notIn', 'between', 'not between'),
    value: listValue,
    boolean: fc.constantFrom('and', 'or'),
  }),
)
const validRequest = fc.record(
  {
    wheres: fc.array(validWhere, { maxLength: 12 }),
    with: fc.array(plainName, { maxLength: 3 }),
    relations_exists: fc.array(plainName, { maxLength: 2 }),
    columns: fc.array(plainName, { maxLength: 3 }),
    orders: fc.array(fc.record({ column: plainName, direction: fc.constantFrom('asc', 'desc', 'DESC') }), {
      maxLength: 3,
    }),
    limit: fc.integer({ min: 1, max: 200 }),
    page: fc.integer({ min: 1, max: 50 }),
    offset: fc.nat(1000),
  },
  { requiredKeys: [] },
)
const anyRequest = fc.oneof(validRequest, clientRequest)

/** What can happen to the client's pairs on the way: reordered, repeated, dropped, a bracket encoded, a junk pair. */
const mutation = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('encode' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    pair: fc.constantFrom(
      'limit=5',
      'wheres[0][column]=x',
      'wheres[1][value][0]=1',
      'with[1]=a',
      'orders[0][column]=id',
      'wheres[0][value]',
      'limit',
      '',
      'a=1',
      'wheres[00][column]=x',
      'limit=1]=2',
      'with[0]=%FF',
      '[with][0]=a',
      'wheres[0][value][]=1',
    ),
  }),
)

type Mutation =
  | { kind: 'none' }
  | { kind: 'swap' | 'repeat' | 'drop' | 'encode'; at: number }
  | { kind: 'insert'; at: number; pair: string }

function mutate(query: string, change: Mutation): string {
  const pairs = query === '' ? [] : query.split('&')
  if (change.kind === 'none') return query
  const at = pairs.length === 0 ? 0 : change.at % pairs.length
  if (change.kind === 'insert') pairs.splice(at, 0, change.pair)
  else if (pairs.length === 0) return query
  else if (change.kind === 'swap') pairs.splice(at, 2, ...pairs.slice(at, at + 2).reverse())
  else if (change.kind === 'repeat') pairs.splice(at, 0, pairs[at] as string)
  else if (change.kind === 'drop') pairs.splice(at, 1)
  else pairs[at] = (pairs[at] as string).replace('[', '%5B')
  return pairs.join('&')
}

const options = fc.oneof(
  fc.constant<ParseOptions>({}),
  fc.record(
    {
      strict: fc.boolean(),
      maxWheres: fc.integer({ min: 0, max: 5 }),
      maxListItems: fc.integer({ min: 0, max: 3 }),
      maxInValues: fc.integer({ min: 0, max: 3 }),
      maxValueLength: fc.integer({ min: 0, max: 6 }),
      maxLikeWildcards: fc.integer({ min: 0, max: 2 }),
      depth: fc.integer({ min: 1, max: 5 }),
      parameterLimit: fc.integer({ min: 1, max: 40 }),
    },
    { requiredKeys: [] },
  ),
)

describe('parseQueryParams: the fused reader against the general reader and qs', function () {
  this.timeout(120_000)

  after(() => {
    console.log(`    (${compared} query strings compared; the fused reader took ${taken})`)
  })

  it('takes the typical client request and gives the general reader’s params and paths', () => {
    const query = stringifyLikeTheClient({
      wheres: [
        { column: 'name', operator: 'like', value: 'al%', boolean: 'and' },
        { column: 'team_id', operator: 'in', value: [1, null, 3], boolean: 'or' },
        { column: 'created_at', operator: '>=', value: '2021-01-01T00:00:00.000Z', boolean: 'and' },
        { column: 'posts.title', operator: 'like', value: null, boolean: 'and' },
      ],
      relations_exists: ['comments'],
      orders: [
        { column: 'name', direction: 'asc' },
        { column: 'created_at', direction: 'desc' },
      ],
      columns: ['id', 'name'],
      limit: 20,
      page: 2,
      with: ['posts', 'team'],
    })
    const fused = readClientQuery(query, PARSE_DEFAULTS)
    expect(fused).to.not.equal(undefined)
    agrees(query)
    expect(fused?.wheres?.[1]).to.deep.equal({
      column: 'team_id',
      operator: 'in',
      boolean: 'or',
      value: ['1', null, '3'],
    })
    expect(paramPath(fused as QueryParams, 'wheres', 1, 'value', 2)).to.equal('wheres[1][value][2]')
    expect(paramPath(fused as QueryParams, 'relationsExists', 0)).to.equal('relations_exists[0]')
  })

  it('hands every query outside the client’s form to the general reader, which answers as before', () => {
    const outside = [
      'wheres[1][column]=a&wheres[0][column]=b', // indices out of order
      'wheres[0][column]=a&wheres[2][column]=b', // a gap
      'wheres[0][column]=a&wheres[0][column]=b', // a field sent twice
      'wheres[0][value]=1&wheres[0][value][0]=2&wheres[0][column]=a', // a value and a list
      'wheres[0][column]=a&wheres[0][operator]=in&wheres[0][value][1]=2&wheres[0][value][0]=1',
      'with[0]=a&with[0]=b',
      'relations_exists[0]=a&relationsExists[1]=b',
      'limit=1&limit=2',
      'limit=1]=2',
      'limit=x',
      'limit',
      'wheres%5B0%5D%5Bcolumn%5D=a',
      'with[0]=%FF%FE',
      'with[00]=a',
      'with[]=a',
      'search=abc',
      'a=1&limit=2',
      'wheres[0][column]=a&wheres[0][operator]=nope',
      'wheres[0][column]=a&wheres[0][boolean]=xor',
      'wheres[0][column]=%20',
      'orders[0][direction]=up&orders[0][column]=id',
      '?limit=2',
      '/users?with[0]=posts#top',
    ]
    for (const query of outside) {
      agrees(query)
      agrees(query, { strict: true })
    }
    for (const query of ['limit=x', 'wheres[0][column]=a&wheres[0][operator]=nope', 'a=1&limit=2', 'with[0]=%FF%FE'])
      expect(readClientQuery(query, PARSE_DEFAULTS), query).to.equal(undefined)
    expect(readClientQuery('?limit=2', PARSE_DEFAULTS)).to.deep.equal({ limit: 2 })
    const many = Array.from({ length: 101 }, (_, i) => `wheres[${i}][column]=id&wheres[${i}][value]=${i}`).join('&')
    expect(readClientQuery(many, PARSE_DEFAULTS)).to.equal(undefined)
    agrees(many)
  })

  it(`agrees with the general reader on client requests, changed on the way (${RUNS} strings, random options)`, () => {
    const before = taken
    fc.assert(
      fc.property(anyRequest, mutation, options, (request, change, given) => {
        agrees(mutate(stringifyLikeTheClient(request), change), given)
      }),
      { seed: SEED, numRuns: RUNS },
    )
    // Not a vacuous pass: the fused reader took a share of them (most changes and options take it out of its form).
    expect(taken - before).to.be.greaterThan(RUNS / 20)
  })

  it(`gives what parseQueryParams gives on qs.parse of the same string, for what the client sends (${RUNS} requests)`, () => {
    let fused = 0
    fc.assert(
      fc.property(anyRequest, (request) => {
        const query = stringifyLikeTheClient(request)
        if (readClientQuery(query, PARSE_DEFAULTS) !== undefined) fused++
        const ours = outcome(() => parseQueryParams(query))
        const viaQs = outcome(() => parseQueryParams(qs.parse(query, QS_OPTIONS) as Record<string, unknown>))
        if ('params' in ours && 'params' in viaQs) {
          expect(ours.params, query).to.deep.equal(viaQs.params)
          expect(paths(ours.params), query).to.deep.equal(paths(viaQs.params))
        } else {
          expect('error' in ours && 'error' in viaQs && ours.error.code === viaQs.error.code, query).to.equal(true)
        }
      }),
      { seed: SEED, numRuns: RUNS },
    )
    expect(fused).to.be.greaterThan(RUNS / 5)
  })
})
