import { expect } from 'chai'
import fc from 'fast-check'
import qs from 'qs'
import { QueryParamsError, type QueryParamsErrorCode } from '../../lib/errors/query-params-error.ts'
import { parseQueryParams } from '../../lib/index.ts'
import { parseQueryString } from '../../lib/parse/parse-query-string.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { clientRequests, scalarOf, stringifyLikeTheClient } from './support/client-requests.ts'

/**
 * Differential fuzzing of the dedicated parser against `qs`: the raw object `parseQueryString` builds
 * (before shape validation) must be what `qs.parse(s, { strictNullHandling: true })` gives — lists
 * compared as lists, whether they come as arrays or as index-keyed objects — for every query string in
 * the format the reference client sends; for anything else it must be that, or a QueryParamsError.
 * Seeded and bounded: the same cases every run, a few seconds in all.
 */

const SEED = 20_240_101
const DEPTH = 5
const PARAMETER_LIMIT = 1000
const QS_OPTIONS = {
  strictNullHandling: true,
  arrayLimit: 1_000_000,
  depth: DEPTH,
  parameterLimit: PARAMETER_LIMIT,
} as const

const CLIENT_RUNS = 2500
const PAIR_RUNS = 3000
const STRING_RUNS = 3000
let cases = 0

const CANONICAL_INDEX = /^(0|[1-9]\d*)$/

/** Arrays and objects whose keys are all list indices become lists in index order; everything else is kept, recursively. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value !== 'object' || value === null) return value
  const entries = Object.entries(value)
  if (entries.length > 0 && entries.every(([key]) => CANONICAL_INDEX.test(key))) {
    return entries
      .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0))
      .map(([, item]) => normalize(item))
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, normalize(item)]))
}

/** Checks one query string against qs; `inGrammar` strings must parse, others may also be rejected with a QueryParamsError. */
function agreesWithQs(query: string, inGrammar: boolean): void {
  cases++
  const theirs = normalize(qs.parse(query, QS_OPTIONS))
  let ours: unknown
  try {
    ours = normalize(parseQueryString(query, DEPTH, PARAMETER_LIMIT))
  } catch (error) {
    if (!inGrammar && error instanceof QueryParamsError) return
    throw error
  }
  expect(ours, `parseQueryString(${JSON.stringify(query)})`).to.deep.equal(theirs)
}

/** `parseQueryParams` may reject any input, but only with a QueryParamsError. */
function failsOnlyCleanly(query: string): void {
  for (const strict of [false, true]) {
    try {
      parseQueryParams(query, { strict })
    } catch (error) {
      if (!(error instanceof QueryParamsError)) throw error
    }
  }
}

// ---- the client's format: request objects, encoded as the reference client encodes them ----

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom(
    'a=b',
    '*',
    '%',
    '%25',
    '+',
    'a+b',
    '100%',
    'null',
    '',
    ' ',
    '&',
    '#',
    '?x',
    '[x]',
    'a]=b',
    'é',
    '😀',
    'ü+ö',
    '%ZZ',
    '\\',
  ),
)
const scalar = scalarOf(text)
const clientRequest = clientRequests(
  text,
  ['id', 'name', 'createdAt', 'created_at', 'posts.title', 'posts.comments.body', 'team.name', '*', 'posts.*'],
  { wheres: 30, values: 25, lists: 5, orders: 4, limit: 2000 },
  { custom: scalar, camel_key: fc.array(scalar, { maxLength: 3 }) },
)

/** What can happen to the client's string on its way: forms send `+` for spaces, proxies decode `%2A`, brackets get percent-encoded, pairs come in any order. */
const transport: fc.Arbitrary<Transport> = fc.record({
  plusForSpace: fc.boolean(),
  rawStar: fc.boolean(),
  encodedBrackets: fc.boolean(),
  shuffle: fc.option(fc.nat(), { nil: undefined }),
})

interface Transport {
  plusForSpace: boolean
  rawStar: boolean
  encodedBrackets: boolean
  shuffle: number | undefined
}

function carry(query: string, how: Transport): string {
  let pairs = query === '' ? [] : query.split('&')
  if (how.shuffle !== undefined) {
    let state = how.shuffle
    pairs = pairs
      .map((pair) => {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
        return { pair, key: state }
      })
      .sort((a, b) => a.key - b.key)
      .map(({ pair }) => pair)
  }
  return pairs
    .map((pair) => {
      const equals = pair.indexOf('=')
      let key = equals === -1 ? pair : pair.slice(0, equals)
      let value = equals === -1 ? undefined : pair.slice(equals + 1)
      if (how.encodedBrackets) key = key.replace(/\[/g, '%5B').replace(/\]/g, '%5D')
      if (value !== undefined && how.plusForSpace) value = value.replace(/%20/g, '+')
      if (value !== undefined && how.rawStar) value = value.replace(/%2A/g, '*')
      return value === undefined ? key : `${key}=${value}`
    })
    .join('&')
}

// ---- outside the grammar: random pairs, then random strings ----

const segment = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '2',
    '7',
    '20',
    '21',
    '22',
    '999',
    '1000000',
    '00',
    '01',
    '-1',
    '1.5',
    '1e3',
    '99999999999999999999',
  ),
  fc.constantFrom('column', 'operator', 'value', 'boolean', 'direction', 'b', ''),
  fc.constantFrom(
    'toString',
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'prototype',
    'valueOf',
    'a=b',
    'a b',
    'é',
    '%5B',
    '%5D',
    '[',
    ']',
  ),
)
const top = fc.constantFrom(
  'wheres',
  'orders',
  'with',
  'columns',
  'limit',
  'page',
  'relations_exists',
  'a',
  'toString',
  '__proto__',
  'constructor',
  'x y',
  'é',
  'a%20b',
  'a+b',
  '',
  '%',
  '=',
)
const rawKey = fc
  .tuple(
    top,
    fc.array(segment, { maxLength: 7 }),
    fc.constantFrom('', '', '', ']', '[', '[x', ']]', 'x', '[]', '[[]]'),
    fc.boolean(),
  )
  .map(([head, segments, tail, encoded]) => {
    const key = `${head}${segments.map((part) => `[${part}]`).join('')}${tail}`
    return encoded ? key.replace(/\[/g, '%5B').replace(/\]/g, '%5D') : key
  })
const rawValue = fc.oneof(
  fc.constant<string | undefined>(undefined),
  text.map((value) => encodeURIComponent(value)),
  fc.constantFrom('', '=', 'a=b', ']=', '%', '%E0%A4', '%ZZ', '+', '%2B', '%5B', '%5Bx%5D', '%00', '*', 'a%26b'),
)
const pairString = fc
  .array(fc.tuple(rawKey, rawValue), { maxLength: 25 })
  .chain((pairs) =>
    fc
      .constantFrom('&', '&&')
      .map((separator) => pairs.map(([key, value]) => (value === undefined ? key : `${key}=${value}`)).join(separator)),
  )

const randomString = fc.string({
  unit: fc.constantFrom(
    'a',
    'b',
    'w',
    '0',
    '1',
    '2',
    '5',
    'B',
    'D',
    '[',
    ']',
    '[',
    ']',
    '=',
    '=',
    '&',
    '&',
    '%',
    '%',
    '+',
    ' ',
    'é',
    '😀',
    '#',
    '?',
    '.',
    '_',
  ),
  maxLength: 60,
})

/** The forms `parseQueryString` reads before the query itself (a leading `?`, a path, a URL) are documented; keep them out. */
const notAPrefix = (query: string): boolean => !query.startsWith('?') && !query.startsWith('/')

describe('parseQueryString: differential fuzzing against qs.parse(s, { strictNullHandling: true })', function () {
  this.timeout(60_000)

  after(() => {
    console.log(`    (${cases} query strings compared with qs)`)
  })

  it(`equals qs on what the reference client sends (${CLIENT_RUNS} request objects, with transport variations)`, () => {
    fc.assert(
      fc.property(clientRequest, transport, (request, how) => {
        const query = carry(stringifyLikeTheClient(request), how)
        agreesWithQs(query, true)
        failsOnlyCleanly(query)
      }),
      { seed: SEED, numRuns: CLIENT_RUNS },
    )
  })

  it(`equals qs or throws a QueryParamsError on random pairs (${PAIR_RUNS} strings)`, () => {
    fc.assert(
      fc.property(pairString, (query) => {
        fc.pre(notAPrefix(query))
        agreesWithQs(query, false)
        failsOnlyCleanly(query)
      }),
      { seed: SEED, numRuns: PAIR_RUNS },
    )
  })

  it(`equals qs or throws a QueryParamsError on random strings (${STRING_RUNS} strings)`, () => {
    fc.assert(
      fc.property(randomString, (query) => {
        fc.pre(notAPrefix(query))
        agreesWithQs(query, false)
        failsOnlyCleanly(query)
      }),
      { seed: SEED, numRuns: STRING_RUNS },
    )
  })

  it('equals qs on hand-picked corners of the format', () => {
    const grammar = [
      '',
      'a',
      'a=',
      'a=1&a=2&a',
      'a[0]=x&a[1]=y',
      'a[1]=y&a[0]=x',
      'a[21]=x&a[0]=y',
      'a[]=x&a[]=y&a[]',
      'a[0][b]=1&a[0][c]=2&a[1]',
      'a[b=c]=d',
      'a=b]=c',
      'toString=1&a[constructor]=2&a[__proto__][x]=3&b=3',
      'a[prototype]=1',
      'a=%ZZ&c=100%&d=%ZZ%C3%A9&e=%',
      'a%5B0%5D=1&a%5b1%5d=2',
      'v=%5Bx&w=%5B%ZZ',
      'a=1?b&c=2#d',
      'wheres[0][value]=a+b%2Bc&wheres[0][value2]=%3D%2A*',
      'with[0]=posts.comments&with[1]=%2A',
      'x=%F0%9F%98%80&y=caf%C3%A9',
      '&&a=1&&',
      '=x&%=y',
      // a key whose name is in brackets, read as qs reads it
      '[columns][0]=id',
      'columns[0]=id&[columns][1]=name',
      '%5Bwith%5D%5B0%5D=posts&%5bwith%5d%5b1%5d=team',
      '[a][]=1&[a][]=2',
      '[a]=1&a=2',
      '[a][b]=1&a[c]=2',
      '[0]=x&[wheres][0][column]=id',
      '[a][1][2][3][4]=1',
    ]
    for (const query of grammar) agreesWithQs(query, true)
    const rejected = [
      'a=1&a[b]=2',
      'a[b]=1&a=2',
      'a[0]=1&a[]=2',
      'a[]=1&a[0]=2',
      'a[][b]=1',
      'a[b]c=1',
      'a[b',
      'a[1][2][3][4][5][6]=1',
      'a[b[c]]=1',
    ]
    for (const query of rejected) {
      cases++
      expect(() => parseQueryString(query, DEPTH, PARAMETER_LIMIT), query).to.throw(QueryParamsError)
    }
  })

  it('rejects, in every mode, what qs only guesses at or lets through: bracket-first keys without a name, escapes that are not UTF-8', () => {
    const rejected: Array<[string, QueryParamsErrorCode, string]> = [
      ['[]=x', 'invalid_syntax', '[]'],
      ['%5B%5D%5B0%5D=x', 'invalid_syntax', '[][0]'],
      ['[[with]]=x', 'invalid_syntax', '[[with]]'],
      ['[with]x=1', 'invalid_syntax', '[with]x'],
      ['[with]]=1', 'invalid_syntax', '[with]]'],
      ['[with=1', 'invalid_syntax', '[with'],
      ['[wheres][0][value][0][a][b]=1', 'limit_exceeded', '[wheres][0][value][0][a][b]'],
      ['with[0]=%FF%FE', 'invalid_value', 'with[0]'],
      ['wheres[0][column]=id&wheres[0][value]=%E0%A4', 'invalid_value', 'wheres[0][value]'],
      ['limit=%C0%AF', 'invalid_value', 'limit'],
      ['[with][0]=%FF', 'invalid_value', '[with][0]'],
      ['with[%FF]=posts', 'invalid_syntax', 'with[%FF]'],
      ['with%5B%FF%5D=posts', 'invalid_syntax', 'with[%FF]'],
    ]
    for (const [query, code, param] of rejected) {
      cases++
      const theirs = qs.parse(query, QS_OPTIONS)
      expect(theirs, `qs reads ${query}`).to.not.deep.equal({})
      for (const strict of [false, true]) {
        const error = expectQueryParamsError(() => parseQueryParams(query, { strict, depth: DEPTH }), { code, param })
        expect(error.message, query).to.not.include('must be one of')
      }
    }
    // under any other name, the pair is kept as qs keeps it: skipped, or unknown_parameter with strict
    expect(parseQueryString('custom=%FF+%FE&x[%FF]=1', DEPTH, PARAMETER_LIMIT)).to.deep.equal(
      qs.parse('custom=%FF+%FE&x[%FF]=1', QS_OPTIONS),
    )
    expect(parseQueryParams('custom=%FF&x[%FF]=1&limit=2')).to.deep.equal({ limit: 2 })
    expectQueryParamsError(() => parseQueryParams('custom=%FF&limit=2', { strict: true }), {
      code: 'unknown_parameter',
      param: 'custom',
    })
  })

  it('reads a bracket-first key of the client format as qs does, in every mode and from every input form', () => {
    const query =
      '[columns][0]=id&%5Bwith%5D%5B0%5D=posts&[wheres][0][column]=name&[wheres][0][operator]=like&[wheres][0][value]=a%25'
    const expected = {
      columns: ['id'],
      with: ['posts'],
      wheres: [{ column: 'name', operator: 'like', value: 'a%', boolean: 'and' }],
    }
    for (const strict of [false, true]) {
      expect(parseQueryParams(query, { strict }), query).to.deep.equal(expected)
      expect(parseQueryParams(new URLSearchParams(query), { strict })).to.deep.equal(expected)
      expect(parseQueryParams(Object.fromEntries(new URLSearchParams(query)), { strict })).to.deep.equal(expected)
    }
    expect(parseQueryParams('columns[0]=id&[columns][1]=name')).to.deep.equal({ columns: ['id', 'name'] })
  })
})
