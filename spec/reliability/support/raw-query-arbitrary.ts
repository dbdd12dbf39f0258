import fc from 'fast-check'
import { encodeForm } from '../../../lib/http/encode-form.ts'
import { OPERATORS } from '../../../lib/query-params.ts'
import { DEMO_TABLE_NAMES, existsPaths, filterColumns, scopeNames, withPaths } from './demo-paths.ts'
import { validCase } from './valid-case-arbitrary.ts'

/** One fuzzed request: the base table, the raw query string, and whether parsing is `strict`. */
export interface RawQueryCase {
  table: string
  query: string
  strict: boolean
}

const everyColumn = [
  ...new Set(DEMO_TABLE_NAMES.flatMap((table) => filterColumns(table, 2).map((column) => column.path))),
]
const everyRelation = [
  ...new Set(DEMO_TABLE_NAMES.flatMap((table) => [...existsPaths(table, 2), ...withPaths(table, 2)])),
]
const everyScope = [...new Set(DEMO_TABLE_NAMES.flatMap(scopeNames))]
const relationNames = [...new Set(everyRelation.flatMap((path) => path.split('.')))]

const index = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 4 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '99999999',
      '9999999999999999',
      '18446744073709551616',
      '00',
      '-1',
      '1e3',
      ' 0',
      '0x1',
      '',
      'a',
      '1.5',
    ),
  },
)
const listKey = fc.constantFrom('columns', 'with', 'scopes', 'relationsExists', 'relations_exists', 'distinct')

/** Keys of the grammar, with indices that are sometimes absurd. */
const validKey: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(index, fc.constantFrom('column', 'operator', 'boolean', 'value'))
    .map(([i, field]) => `wheres[${i}][${field}]`),
  fc.tuple(index, index).map(([i, j]) => `wheres[${i}][value][${j}]`),
  index.map((i) => `wheres[${i}][value][]`),
  fc.tuple(index, fc.constantFrom('column', 'direction')).map(([i, field]) => `orders[${i}][${field}]`),
  fc.tuple(listKey, index).map(([key, i]) => `${key}[${i}]`),
  listKey.map((key) => `${key}[]`),
  fc.constantFrom(
    'limit',
    'offset',
    'page',
    'with',
    'columns',
    'wheres',
    'orders',
    'scopes',
    'distinct',
    'relationsExists',
  ),
)

const segment = fc.oneof(
  fc.nat({ max: 3 }).map(String),
  fc.constantFrom('column', 'value', 'x', '', '__proto__', 'constructor', 'prototype', 'length'),
)

/** Keys outside the grammar: random text, unbalanced or nested brackets, prototype names, deep nesting. */
const garbageKey: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc
    .tuple(
      fc.constantFrom('wheres', 'orders', 'with', 'a', 'limit', '__proto__'),
      fc.array(segment, { minLength: 1, maxLength: 14 }),
    )
    .map(([name, segments]) => `${name}${segments.map((part) => `[${part}]`).join('')}`),
  fc.constantFrom(
    '[',
    ']',
    '[]',
    '[0]',
    'wheres[',
    'wheres]',
    'wheres[0',
    'wheres[0]]',
    'wheres[[0]]',
    'wheres[0][column',
    'wheres][0[',
    '__proto__',
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
    'wheres[__proto__][column]',
    'wheres[0][__proto__]',
    'wheres[0][column][x]',
    'wheres[][column]',
    'limit[]',
    'limit[0]',
    'with[0][x]',
    'orders[0][column][]',
    'wheres[0][value][0][x]',
    'hasOwnProperty',
    'toString',
    'valueOf',
  ),
)

const deepRelationPath = fc
  .tuple(
    fc.array(fc.constantFrom(...relationNames), { minLength: 1, maxLength: 40 }),
    fc.constantFrom('name', 'id', 'title', 'password', ''),
  )
  .map(([relations, column]) => [...relations, column].join('.'))

/** Values: names the grammar knows (sometimes right, often in the wrong place), garbage, unicode, long text. */
const value: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(...everyColumn, 'password', 'users.password', 'author.password', '*', 'users.*'),
  },
  { weight: 2, arbitrary: fc.constantFrom(...everyRelation, ...everyScope) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...OPERATORS,
      '<>',
      'not in',
      'LIKE',
      'and',
      'or',
      'OR',
      'asc',
      'desc',
      'DESC',
      'null',
      'true',
      'false',
      '',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(fc.integer().map(String), fc.double().map(String), fc.nat({ max: 2000 }).map(String)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '1e309',
      '-0',
      '9007199254740993',
      '3000000000',
      '-2147483649',
      '0x10',
      '1_000',
      '０',
      '１２',
      ' 7 ',
      '+5',
      '.5',
      '5.',
      '2021-02-10',
      '2021-02-10T09:00:00Z',
      '2021-02-10 09:00:00.123456789+05:30',
      '0001-01-01',
      '9999-12-31T23:59:59-14:00',
      '2024-02-30',
      '2023-02-29',
      '10000-01-01',
      '0000-01-01',
      '2021-13-01',
      '2021-02-10T24:00:00',
      'yesterday',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 990, maxLength: 1100 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'x'.repeat(1000),
      'x'.repeat(1001),
      '%'.repeat(1000),
      '\\'.repeat(999),
      '_%\\'.repeat(300),
      '💥'.repeat(600),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '%',
      '%2',
      '%zz',
      '%E0%A4%A',
      '%C0%80',
      '%FF',
      '%ED%A0%80',
      '%00',
      'a%00b',
      '%u0041',
      '%%',
      '%25',
      '%5B',
      '%5D',
    ),
  },
  { weight: 2, arbitrary: deepRelationPath },
)

/** How a pair travels: percent-encoded, raw (its `&`, `=`, `[` then reshape the query), or bracket-encoded. */
function encode(text: string, how: 'encoded' | 'raw' | 'brackets'): string {
  if (how === 'raw') return text
  if (how === 'brackets') return text.replace(/\[/g, '%5B').replace(/\]/g, '%5D')
  try {
    return encodeURIComponent(text)
  } catch {
    return text // a lone surrogate cannot be percent-encoded; send it as is
  }
}

const how = fc.constantFrom<'encoded' | 'raw' | 'brackets'>('encoded', 'encoded', 'encoded', 'raw', 'brackets')

const pair: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(validKey, value, how, how)
      .map(([key, text, keyHow, valueHow]) => `${encode(key, keyHow)}=${encode(text, valueHow)}`),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(garbageKey, value, how)
      .map(([key, text, valueHow]) => `${encode(key, 'raw')}=${encode(text, valueHow)}`),
  },
  { weight: 1, arbitrary: validKey },
  { weight: 1, arbitrary: fc.constantFrom('', '=', '==', '&', '=x', '[]=', 'wheres', 'wheres=', 'limit', '?', '#') },
)

const usersPaths = existsPaths('users', 3).filter((path) => path.split('.').length === 3)

/**
 * Whole queries of special shapes: past the caps, huge, or — without the relation caps — heavy enough to
 * break a database: SQLite's expression depth (999 relationsExists or scopes, a 40-relation path), MySQL's
 * 61-table join (an order through 31 to-one relations), minutes of planning (many AND-ed relation filters).
 */
const special: fc.Arbitrary<string> = fc.constantFrom(
  Array.from({ length: 999 }, (_, i) => `relationsExists[${i}]=posts`).join('&'),
  Array.from({ length: 999 }, (_, i) => `scopes[${i}]=${i % 2 === 0 ? 'popular' : 'admins'}`).join('&'),
  `wheres[0][column]=${'posts.author.'.repeat(40)}name&wheres[0][value]=x`,
  `orders[0][column]=${'team.owner.'.repeat(31)}name`,
  usersPaths
    .map((path, i) => `wheres[${i}][column]=${path}.id&wheres[${i}][operator]=%3E&wheres[${i}][value]=0`)
    .join('&'),
  usersPaths.map((path, i) => `relationsExists[${i}]=${path}`).join('&'),
  Array.from({ length: 1001 }, (_, i) => `a${i}=1`).join('&'),
  Array.from({ length: 101 }, (_, i) => `wheres[${i}][column]=id&wheres[${i}][value]=${i}`).join('&'),
  `wheres[0][column]=id&wheres[0][operator]=in&${Array.from({ length: 998 }, (_, i) => `wheres[0][value][]=${i}`).join('&')}`,
  Array.from({ length: 60 }, (_, i) => `orders[${i}][column]=id`).join('&'),
  Array.from({ length: 12 }, (_, i) => `relationsExists[${i}]=posts`).join('&'),
  `wheres[0][column]=${'posts.author.'.repeat(30)}name&wheres[0][value]=x`,
  `orders[0][column]=${'team.owner.'.repeat(40)}name`,
  `with[0]=${'posts.author.'.repeat(5)}team`,
  `wheres[99999999][column]=id&wheres[99999999][value]=1&wheres[0][column]=id&wheres[0][value]=2&wheres[0][boolean]=or`,
  `${'a['.repeat(500)}${']'.repeat(500)}=1`,
  `wheres${'[0]'.repeat(200)}=1`,
)

type Mutation = (pairs: string[], at: number) => string[]

/** Small corruptions of an encoded valid query: a garbage value or key, a huge index, a repeat, a cut escape. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(value, how).map(
    ([text, valueHow]): Mutation =>
      (pairs, at) =>
        pairs.map((pair, i) => (i === at ? `${pair.split('=')[0] ?? ''}=${encode(text, valueHow)}` : pair)),
  ),
  garbageKey.map(
    (key): Mutation =>
      (pairs, at) => [...pairs.slice(0, at), `${key}=1`, ...pairs.slice(at)],
  ),
  fc.constantFrom('99999999', '9999999999999999', 'x', '').map(
    (index): Mutation =>
      (pairs, at) =>
        pairs.map((pair, i) => (i === at ? pair.replace(/(%5B|\[)\d+(%5D|\])/i, `[${index}]`) : pair)),
  ),
  fc.constant<Mutation>((pairs, at) => [...pairs, pairs[at] ?? '']),
  fc.constant<Mutation>((pairs, at) =>
    pairs.map((pair, i) => (i === at ? pair.slice(0, Math.max(0, pair.length - 2)) : pair)),
  ),
  fc.constant<Mutation>((pairs, at) => pairs.map((pair, i) => (i === at ? (pair.split('=')[0] ?? '') : pair))),
)

/** A valid request of the demo map, encoded as the client would, then corrupted a little. */
const mutatedQuery: fc.Arbitrary<{ table: string; query: string }> = fc
  .tuple(validCase('any'), fc.array(fc.tuple(mutation, fc.nat()), { maxLength: 3 }))
  .map(([{ table, params }, mutations]) => {
    let pairs = encodeForm(params)
      .split('&')
      .filter((pair) => pair !== '')
    for (const [mutate, at] of mutations) pairs = mutate(pairs, pairs.length === 0 ? 0 : at % pairs.length)
    return { table, query: pairs.join('&') }
  })

/** Random pairs joined into a query, some repeated, sometimes behind `?` or a path; or a special shape. */
const randomQuery: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc
      .tuple(
        fc.array(pair, { maxLength: 24 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom('', '', '?', '/users?'),
      )
      .map(([pairs, repeats, prefix]) => {
        const repeated = pairs.length === 0 ? [] : repeats.map((at) => pairs[at % pairs.length] as string)
        return `${prefix}${[...pairs, ...repeated].join('&')}`
      }),
  },
  { weight: 3, arbitrary: special },
)

/**
 * Random raw query strings against a random demo table: corrupted valid requests two times in three,
 * else random pairs — valid keys with garbage values, garbage keys, deep nesting, huge indices, repeated
 * keys, unicode and lone surrogates, malformed percent-encoding, kilobyte values — or queries past the caps.
 */
export const rawQueryCase: fc.Arbitrary<RawQueryCase> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.tuple(mutatedQuery, fc.boolean()).map(([{ table, query }, strict]) => ({ table, query, strict })),
  },
  {
    weight: 1,
    arbitrary: fc.record({ table: fc.constantFrom(...DEMO_TABLE_NAMES), strict: fc.boolean(), query: randomQuery }),
  },
)
