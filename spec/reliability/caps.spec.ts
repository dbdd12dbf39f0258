import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { APPLY_DEFAULTS, PARSE_DEFAULTS, type ApplyOptions, type ParseOptions } from '../../lib/options.ts'
import type { QueryParamsInput } from '../../lib/parse/read-input.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const list = (count: number, pair: (index: number) => string): string =>
  Array.from({ length: count }, (_, index) => pair(index)).join('&')

/**
 * What a request at its cap must return: every row of the table, no row, at least one row, `count` rows, or
 * exactly the rows of these ids.
 */
type Expected = 'every row' | 'no row' | 'some rows' | { count: number } | readonly number[]

const byId = (a: number, b: number): number => a - b

/**
 * Parses and applies `query` to `table` and runs it on every test database: each returns the same rows
 * (the same JSON values, in any order), and those rows are `expected`.
 */
async function runsEverywhere(
  table: string,
  query: QueryParamsInput,
  parse: ParseOptions = {},
  apply: ApplyOptions = {},
  expected: Expected = 'some rows',
): Promise<void> {
  const params = parseQueryParams(query, parse)
  let first: string | undefined
  for (const db of testDatabases()) {
    const rows = rowsOf(await applyQueryParams(db.knex(table), params, relationMap, apply))
    const same = JSON.stringify(rows.map((row) => JSON.stringify(row)).sort())
    if (first === undefined) first = same
    else expect(same, `${db.name}: the rows of the first database`).to.equal(first)
    const ids = rows.map((row) => Number(row.id)).sort(byId)
    if (expected === 'every row') {
      const all = (await db.knex(table).pluck('id')).map(Number).sort(byId)
      expect(ids, db.name).to.deep.equal(all)
    } else if (expected === 'no row') expect(rows, db.name).to.deep.equal([])
    else if (expected === 'some rows') expect(rows, db.name).to.not.be.empty
    else if ('count' in expected) expect(rows, db.name).to.have.length(expected.count)
    else expect(ids, db.name).to.deep.equal(expected)
  }
}

/** Parse and apply, without running: for one past a cap, which must throw before any SQL. */
function build(table: string, query: QueryParamsInput, parse: ParseOptions = {}, apply: ApplyOptions = {}): void {
  applyQueryParams(
    testDatabases()[0]?.knex(table) ?? expect.fail('no database'),
    parseQueryParams(query, parse),
    relationMap,
    apply,
  )
}

const limitExceeded = (param: string) => ({ code: 'limit_exceeded' as const, param })

const wheres = (count: number, from = 0): string =>
  list(count, (n) => `wheres[${from + n}][column]=id&wheres[${from + n}][operator]=%3E&wheres[${from + n}][value]=0`)
const inList = (count: number): string =>
  `wheres[0][column]=id&wheres[0][operator]=in&${list(count, (i) => `wheres[0][value][${i}]=${i}`)}`
const withList = (count: number): string =>
  list(count, (i) => `with[${i}]=${['posts', 'team', 'comments', 'avatar'][i % 4] ?? 'posts'}`)
/** `users` → posts → comments → post → author → team → owner → …: a relation path of `depth` relations. */
const CHAIN = ['posts', 'comments', 'post', 'author', 'team', 'owner', 'posts', 'comments']
const chain = (depth: number): string => CHAIN.slice(0, depth).join('.')
const TO_ONE_CHAIN = ['team', 'owner', 'team', 'owner', 'team', 'owner', 'team']
const toOneChain = (depth: number): string => TO_ONE_CHAIN.slice(0, depth).join('.')
const relationWheres = (count: number): string =>
  list(
    count,
    (i) => `wheres[${i}][column]=posts.id&wheres[${i}][operator]=%3E&wheres[${i}][value]=${i}&wheres[${i}][boolean]=or`,
  )

describe('caps: each a 400 limit_exceeded, at the limit it works (the same rows on every database, as expected), one past it does not', () => {
  describe('maxWheres (default 100)', () => {
    it('100 wheres run; 101 are limit_exceeded on wheres', async () => {
      expect(PARSE_DEFAULTS.maxWheres).to.equal(100)
      await runsEverywhere('users', wheres(100), {}, {}, 'every row')
      expectQueryParamsError(() => parseQueryParams(wheres(101)), limitExceeded('wheres'))
    })
    it('configurable: maxWheres 3', async () => {
      await runsEverywhere('users', wheres(3), { maxWheres: 3 }, {}, 'every row')
      expectQueryParamsError(() => parseQueryParams(wheres(4), { maxWheres: 3 }), limitExceeded('wheres'))
    })
  })

  describe('maxInValues (default 1000)', () => {
    it('1000 in-values run with every other default; 1001 are limit_exceeded on the value list', async () => {
      expect(PARSE_DEFAULTS.maxInValues).to.equal(1000)
      await runsEverywhere('users', inList(1000), {}, {}, 'every row')
      expectQueryParamsError(() => parseQueryParams(inList(1001)), limitExceeded('wheres[0][value]'))
    })
    it('configurable: maxInValues 5, for in and notIn', async () => {
      await runsEverywhere('users', inList(5), { maxInValues: 5 }, {}, [1, 2, 3, 4])
      expectQueryParamsError(() => parseQueryParams(inList(6), { maxInValues: 5 }), limitExceeded('wheres[0][value]'))
      expectQueryParamsError(
        () => parseQueryParams(inList(6).replace('=in&', '=notIn&'), { maxInValues: 5 }),
        limitExceeded('wheres[0][value]'),
      )
    })
  })

  describe('maxValueLength (default 1000)', () => {
    it('a 1000-character value runs; 1001 characters are limit_exceeded on that value, in a list too', async () => {
      expect(PARSE_DEFAULTS.maxValueLength).to.equal(1000)
      await runsEverywhere('users', `wheres[0][column]=name&wheres[0][value]=${'é'.repeat(1000)}`, {}, {}, 'no row')
      expectQueryParamsError(
        () => parseQueryParams(`wheres[0][column]=name&wheres[0][value]=${'x'.repeat(1001)}`),
        limitExceeded('wheres[0][value]'),
      )
      expectQueryParamsError(
        () =>
          parseQueryParams(
            `wheres[0][column]=name&wheres[0][operator]=in&wheres[0][value][0]=a&wheres[0][value][1]=${'x'.repeat(1001)}`,
          ),
        limitExceeded('wheres[0][value][1]'),
      )
    })
    it('configurable: maxValueLength 10', async () => {
      await runsEverywhere(
        'users',
        `wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=${'%'.repeat(10)}`,
        { maxValueLength: 10 },
        {},
        'every row',
      )
      expectQueryParamsError(
        () => parseQueryParams(`wheres[0][column]=name&wheres[0][value]=${'x'.repeat(11)}`, { maxValueLength: 10 }),
        limitExceeded('wheres[0][value]'),
      )
    })
  })

  describe('depth (default 5, qs depth)', () => {
    it('a key of 5 bracket levels is read (then judged on its shape); 6 levels are limit_exceeded on the key', () => {
      expect(PARSE_DEFAULTS.depth).to.equal(5)
      expectQueryParamsError(
        () => parseQueryParams('wheres[0][value][0][a][b]=1&wheres[0][column]=id&wheres[0][operator]=in'),
        { code: 'invalid_value', param: 'wheres[0][value][0]' },
      )
      expectQueryParamsError(
        () => parseQueryParams('wheres[0][value][0][a][b][c]=1'),
        limitExceeded('wheres[0][value][0][a][b][c]'),
      )
    })
    it('configurable: depth 3, for a query string, URLSearchParams, a bracket-keyed object and an already-parsed object', async () => {
      await runsEverywhere(
        'users',
        'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1',
        { depth: 3 },
        {},
        [1],
      )
      expectQueryParamsError(
        () => parseQueryParams('wheres[0][value][0][x]=1', { depth: 3 }),
        limitExceeded('wheres[0][value][0][x]'),
      )
      expectQueryParamsError(
        () => parseQueryParams(new URLSearchParams('wheres[0][value][0][x]=1'), { depth: 3 }),
        limitExceeded('wheres[0][value][0][x]'),
      )
      expectQueryParamsError(
        () => parseQueryParams({ 'wheres[0][value][0][x]': '1' }, { depth: 3 }),
        limitExceeded('wheres[0][value][0][x]'),
      )
      const parsed = { wheres: [{ column: 'id', operator: 'in', value: [['1']] }] }
      await runsEverywhere('users', { wheres: [{ column: 'id', operator: 'in', value: ['1'] }] }, { depth: 3 }, {}, [1])
      expectQueryParamsError(() => parseQueryParams(parsed, { depth: 3 }), limitExceeded('wheres[0][value][0]'))
    })
  })

  describe('parameterLimit (default 1000, qs parameterLimit)', () => {
    const pairs = (count: number): string => list(count, (i) => (i === 0 ? 'limit=5' : `ignored${i}=x`))
    it('2000 pairs are read; 2001 are limit_exceeded on query', async () => {
      expect(PARSE_DEFAULTS.parameterLimit).to.equal(2000)
      await runsEverywhere('users', pairs(2000), {}, {}, { count: 5 })
      expectQueryParamsError(() => parseQueryParams(pairs(2001)), limitExceeded('query'))
    })
    it('configurable: parameterLimit 10, for every input form', async () => {
      await runsEverywhere('users', pairs(10), { parameterLimit: 10 }, {}, { count: 5 })
      expectQueryParamsError(() => parseQueryParams(pairs(11), { parameterLimit: 10 }), limitExceeded('query'))
      expectQueryParamsError(
        () => parseQueryParams(new URLSearchParams(pairs(11)), { parameterLimit: 10 }),
        limitExceeded('query'),
      )
      expectQueryParamsError(
        () =>
          parseQueryParams(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`with[${i}]`, 'posts'])), {
            parameterLimit: 10,
          }),
        limitExceeded('query'),
      )
      await runsEverywhere(
        'users',
        { with: Array.from({ length: 10 }, () => 'posts') },
        { parameterLimit: 10 },
        {},
        'every row',
      )
      expectQueryParamsError(
        () => parseQueryParams({ with: Array.from({ length: 11 }, () => 'posts') }, { parameterLimit: 10 }),
        limitExceeded('query'),
      )
    })
    it('an already-parsed object cannot smuggle more values than a query string could (100 wheres × 1000 values)', () => {
      const huge = {
        wheres: Array.from({ length: 100 }, () => ({
          column: 'id',
          operator: 'in',
          value: Array.from({ length: 1000 }, (_, i) => String(i)),
        })),
      }
      expectQueryParamsError(() => parseQueryParams(huge), limitExceeded('query'))
    })
  })

  describe('maxLimit (default 1000)', () => {
    it('limit=1000 runs; 1001 is limit_exceeded on limit', async () => {
      expect(APPLY_DEFAULTS.maxLimit).to.equal(1000)
      await runsEverywhere('users', 'limit=1000', {}, {}, 'every row')
      expectQueryParamsError(() => build('users', 'limit=1001'), limitExceeded('limit'))
    })
    it('configurable: maxLimit 10, and a defaultLimit above it is refused too', async () => {
      await runsEverywhere('users', 'limit=10&page=2', {}, { maxLimit: 10 })
      expectQueryParamsError(() => build('users', 'limit=11', {}, { maxLimit: 10 }), limitExceeded('limit'))
      expectQueryParamsError(
        () => build('users', 'page=1', {}, { maxLimit: 10, defaultLimit: 11 }),
        limitExceeded('limit'),
      )
    })
  })

  describe('maxWith (default 20)', () => {
    it('20 with entries run; 21 are limit_exceeded on with', async () => {
      expect(APPLY_DEFAULTS.maxWith).to.equal(20)
      await runsEverywhere('users', withList(20), {}, {}, 'every row')
      expectQueryParamsError(() => build('users', withList(21)), limitExceeded('with'))
    })
    it('configurable: maxWith 2', async () => {
      await runsEverywhere('users', withList(2), {}, { maxWith: 2 }, 'every row')
      expectQueryParamsError(() => build('users', withList(3), {}, { maxWith: 2 }), limitExceeded('with'))
    })
  })

  describe('maxWithDepth (default 3)', () => {
    it('a with path of 3 relations runs; 4 are limit_exceeded on that entry', async () => {
      expect(APPLY_DEFAULTS.maxWithDepth).to.equal(3)
      await runsEverywhere('users', 'with[0]=posts.comments.author', {}, {}, 'every row')
      expectQueryParamsError(
        () => build('users', 'with[0]=team&with[1]=posts.comments.author.team'),
        limitExceeded('with[1]'),
      )
    })
    it('configurable: maxWithDepth 1', async () => {
      await runsEverywhere('users', 'with[0]=posts', {}, { maxWithDepth: 1 }, 'every row')
      expectQueryParamsError(
        () => build('users', 'with[0]=posts.comments', {}, { maxWithDepth: 1 }),
        limitExceeded('with[0]'),
      )
    })
  })

  describe('maxListItems (default 50): orders, columns, distinct, scopes', () => {
    const cases: ReadonlyArray<[key: string, table: string, item: (i: number) => string, apply?: ApplyOptions]> = [
      [
        'orders',
        'users',
        (i) => `orders[${i}][column]=${i % 2 === 0 ? 'id' : 'team.name'}&orders[${i}][direction]=desc`,
        { maxRelationOrders: 25 },
      ],
      ['columns', 'users', (i) => `columns[${i}]=${i % 2 === 0 ? 'id' : 'name'}`],
      ['distinct', 'users', (i) => `distinct[${i}]=${i % 2 === 0 ? 'team_id' : 'is_admin'}`],
      ['scopes', 'posts', (i) => `scopes[${i}]=${i % 2 === 0 ? 'popular' : 'published'}`],
    ]
    for (const [key, table, item, apply] of cases) {
      it(`50 ${key} entries run; 51 are limit_exceeded on ${key}`, async () => {
        expect(PARSE_DEFAULTS.maxListItems).to.equal(50)
        await runsEverywhere(table, list(50, item), {}, apply)
        expectQueryParamsError(() => parseQueryParams(list(51, item)), limitExceeded(key))
      })
    }
    it('configurable: maxListItems 2 (snake_case names reported as sent)', async () => {
      await runsEverywhere('users', 'orders[0][column]=id&orders[1][column]=name', { maxListItems: 2 }, {}, 'every row')
      expectQueryParamsError(
        () =>
          parseQueryParams('orders[0][column]=id&orders[1][column]=name&orders[2][column]=email', { maxListItems: 2 }),
        limitExceeded('orders'),
      )
      expectQueryParamsError(
        () => parseQueryParams('columns[0]=id&columns[1]=name&columns[2]=email', { maxListItems: 2 }),
        limitExceeded('columns'),
      )
    })
    it('relationsExists is capped by maxRelationFilters alone, which is lower: 50 entries run when it allows them', async () => {
      const exists = (count: number): string => list(count, (i) => `relations_exists[${i}]=posts`)
      await runsEverywhere('users', exists(50), {}, { maxRelationFilters: 50 })
      expectQueryParamsError(
        () => build('users', exists(51), {}, { maxRelationFilters: 50 }),
        limitExceeded('relations_exists[50]'),
      )
      expectQueryParamsError(() => build('users', exists(11)), limitExceeded('relations_exists[10]'))
    })
  })

  describe('maxRelationDepth (default 5): relation paths of wheres, relationsExists and orders', () => {
    it('a where column through 5 relations runs; 6 are limit_exceeded on that column', async () => {
      expect(APPLY_DEFAULTS.maxRelationDepth).to.equal(5)
      await runsEverywhere('users', `wheres[0][column]=${chain(5)}.name&wheres[0][value]=Core`)
      expectQueryParamsError(
        () =>
          build(
            'users',
            `wheres[0][column]=id&wheres[0][value]=1&wheres[1][column]=${chain(6)}.name&wheres[1][value]=x`,
          ),
        limitExceeded('wheres[1][column]'),
      )
    })
    it('a relationsExists path of 5 relations runs; 6 are limit_exceeded on that entry', async () => {
      await runsEverywhere('users', `relationsExists[0]=${chain(5)}`)
      expectQueryParamsError(
        () => build('users', `relationsExists[0]=${chain(6)}`),
        limitExceeded('relationsExists[0]'),
      )
    })
    it('an order through 5 to-one relations runs; 6 are limit_exceeded on that column', async () => {
      await runsEverywhere('users', `orders[0][column]=${toOneChain(5)}.name`, {}, {}, 'every row')
      expectQueryParamsError(
        () => build('users', `orders[0][column]=${toOneChain(6)}.name`),
        limitExceeded('orders[0][column]'),
      )
    })
    it('configurable: maxRelationDepth 1', async () => {
      await runsEverywhere(
        'users',
        'wheres[0][column]=posts.title&wheres[0][value]=x&relationsExists[0]=team&orders[0][column]=team.name',
        {},
        { maxRelationDepth: 1 },
        'no row',
      )
      expectQueryParamsError(
        () => build('users', 'relationsExists[0]=posts.comments', {}, { maxRelationDepth: 1 }),
        limitExceeded('relationsExists[0]'),
      )
    })
  })

  describe('maxRelationFilters (default 10): relation wheres plus relationsExists', () => {
    it('10 relation conditions run; the 11th is limit_exceeded on itself', async () => {
      expect(APPLY_DEFAULTS.maxRelationFilters).to.equal(10)
      await runsEverywhere('users', `${relationWheres(10)}&${wheres(50, 10)}`)
      expectQueryParamsError(() => build('users', relationWheres(11)), limitExceeded('wheres[10][column]'))
      expectQueryParamsError(
        () => build('users', `${relationWheres(8)}&${list(3, (i) => `relationsExists[${i}]=posts`)}`),
        limitExceeded('relationsExists[2]'),
      )
    })
    it('configurable: maxRelationFilters 2; plain-column wheres do not count', async () => {
      await runsEverywhere(
        'users',
        `relationsExists[0]=posts&${relationWheres(1)}&${wheres(5, 1)}`,
        {},
        { maxRelationFilters: 2 },
      )
      expectQueryParamsError(
        () =>
          build(
            'users',
            `relationsExists[0]=posts&relationsExists[1]=team&${relationWheres(1)}`,
            {},
            { maxRelationFilters: 2 },
          ),
        limitExceeded('relationsExists[1]'),
      )
    })
  })

  describe('maxRelationOrders (default 3): orders through a relation', () => {
    const relationOrders = ['team.name', 'avatar.url', 'ownedTeam.name', 'team.owner.name']
    const orders = (count: number): string =>
      list(
        count,
        (i) => `orders[${2 * i}][column]=${relationOrders[i] ?? 'team.name'}&orders[${2 * i + 1}][column]=name`,
      )
    it('3 orders through relations run (own-column orders between them do not count); the 4th is limit_exceeded on itself', async () => {
      expect(APPLY_DEFAULTS.maxRelationOrders).to.equal(3)
      await runsEverywhere('users', `${orders(3)}&limit=5`, {}, {}, { count: 5 })
      expectQueryParamsError(() => build('users', orders(4)), limitExceeded('orders[6][column]'))
    })
    it('configurable: maxRelationOrders 1; hasOne and morphOne orders count like belongsTo ones', async () => {
      await runsEverywhere(
        'users',
        'orders[0][column]=avatar.url&orders[1][column]=id',
        {},
        { maxRelationOrders: 1 },
        'every row',
      )
      expectQueryParamsError(
        () =>
          build('users', 'orders[0][column]=avatar.url&orders[1][column]=ownedTeam.name', {}, { maxRelationOrders: 1 }),
        limitExceeded('orders[1][column]'),
      )
    })
  })

  describe('maxLikeWildcards (default 10): % and _ in one like value', () => {
    const like = (pattern: string, index = 0): string =>
      `wheres[${index}][column]=name&wheres[${index}][operator]=like&wheres[${index}][value]=${encodeURIComponent(pattern)}`
    it('10 wildcards run; 11 are limit_exceeded on that value; escaped ones do not count', async () => {
      expect(PARSE_DEFAULTS.maxLikeWildcards).to.equal(10)
      await runsEverywhere('users', like('%_%_%_%_%_'))
      expectQueryParamsError(
        () => parseQueryParams(`${like('a%')}&${like('%_%_%_%_%_%', 1)}`),
        limitExceeded('wheres[1][value]'),
      )
      await runsEverywhere('users', like(`${'\\%\\_'.repeat(50)}%_%_%_%_%_`), {}, {}, 'no row')
    })
    it('configurable: maxLikeWildcards 2; a value of another operator is not counted', async () => {
      await runsEverywhere(
        'users',
        `${like('%a%')}&wheres[1][column]=name&wheres[1][value]=%25%25%25`,
        { maxLikeWildcards: 2 },
        {},
        'no row',
      )
      expectQueryParamsError(
        () => parseQueryParams(like('%a_%'), { maxLikeWildcards: 2 }),
        limitExceeded('wheres[0][value]'),
      )
    })
  })

  describe('caps that agree: each default is reachable with every other default', () => {
    it('one in list at maxInValues plus every other list at its cap is one request within parameterLimit', async () => {
      const request = [
        inList(PARSE_DEFAULTS.maxInValues),
        wheres(PARSE_DEFAULTS.maxWheres - 1, 1),
        list(
          PARSE_DEFAULTS.maxListItems,
          (i) =>
            `orders[${i}][column]=${i < APPLY_DEFAULTS.maxRelationOrders ? 'team.name' : 'id'}&orders[${i}][direction]=desc`,
        ),
        list(PARSE_DEFAULTS.maxListItems, (i) => `columns[${i}]=${i % 2 === 0 ? 'id' : 'name'}`),
        list(PARSE_DEFAULTS.maxListItems, (i) => `scopes[${i}]=admins`),
        list(APPLY_DEFAULTS.maxRelationFilters, (i) => `relationsExists[${i}]=posts`),
        list(APPLY_DEFAULTS.maxWith, (i) => `with[${i}]=${['posts', 'team', 'comments', 'avatar'][i % 4] ?? 'posts'}`),
        `limit=${APPLY_DEFAULTS.maxLimit}&page=1`,
      ].join('&')
      expect(request.split('&').length).to.be.above(1500).and.at.most(PARSE_DEFAULTS.parameterLimit)
      await runsEverywhere('users', request)
    })
  })

  it('every cap and option is documented in the options table of docs/api.md with its default', () => {
    const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')
    const rows = new Map(
      [...readme.matchAll(/^\|\s*`(\w+)`\s*\|\s*(parse|apply)\s*\|\s*([^|]*)\|/gm)].map((match) => [
        match[1] ?? '',
        { of: match[2] ?? '', default: (match[3] ?? '').trim() },
      ]),
    )
    const missing: string[] = []
    const documented = (of: 'parse' | 'apply', defaults: Readonly<Record<string, unknown>>): void => {
      for (const [name, value] of Object.entries(defaults)) {
        const row = rows.get(name)
        if (row === undefined || row.of !== of || !row.default.includes(String(value)))
          missing.push(`| \`${name}\` | ${of} | ${String(value)} | … |`)
      }
    }
    documented('parse', PARSE_DEFAULTS)
    documented('apply', APPLY_DEFAULTS)
    expect(missing, 'docs/api.md "## Options" lacks these rows (or their defaults)').to.deep.equal([])
  })
})
