import { performance } from 'node:perf_hooks'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import type { BenchDatabase } from '../data/ensure-dataset.ts'
import { measured, result, type BenchResult } from '../result.ts'
import { compare, type Budget } from '../timing.ts'
import { worstRelationMap, WORST_SPEC } from './worst-dataset.ts'

const FIGURE = '16. the worst valid request'

type Row = Record<string, unknown>

interface Sql {
  sql: string
  bindings: readonly Knex.Value[]
}

function rowsOf(database: BenchDatabase, raw: unknown): Row[] {
  if (database.dialect === 'postgres') return (raw as { rows: Row[] }).rows
  if (database.dialect === 'mysql') return (raw as [Row[]])[0]
  return raw as Row[]
}

const run = async (database: BenchDatabase, query: Sql): Promise<Row[]> =>
  rowsOf(database, await database.knex.raw(query.sql, query.bindings as Knex.Value[]))

const fingerprint = (rows: readonly Row[], column: string): string =>
  rows.map((row) => `${String(row.id)}:${row[column] === null ? 'null' : Number(row[column])}`).join(',')

async function timeOnce(operation: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await operation()
  return performance.now() - start
}

/** A page of users with a declared aggregate over posts indexed only on `(views)` and `(user_id)`. */
interface AggregateCase {
  name: string
  request: string
  column: string
  /** The expert's forms: the aggregate as `value` in the select list, the page's where, order and limit. */
  forms: (dialect: BenchDatabase['dialect']) => Array<{ name: string; sql: string }>
}

const NO_POSTS_PAGE = Math.floor(WORST_SPEC.usersWithPosts / 50) + 10
const page = (number: number): string => `order by w_users.id limit 50 offset ${(number - 1) * 50}`
const SCALAR_MAX = '(select max(w_posts.views) from w_posts where w_posts.user_id = w_users.id)'
const GROUPED_MAX =
  '(select max(w_posts.views) from w_posts where w_posts.user_id = w_users.id group by w_posts.user_id)'
const USERS = 'w_users.id, w_users.email, w_users.score, w_users.created_at'

/**
 * The expert's forms of a page of users with their max views: `where` tests the max (its SQL given), `tail` orders
 * and pages; with `reaching`, the where is "the max reaches `reaching`" and the forms that test whether some post
 * reaches it (`exists`, and the scalar probe `(select 1 … limit 1) is not null`) join them.
 */
function maxForms(
  where: (max: string) => string,
  tail: string,
  reaching?: number,
): (dialect: BenchDatabase['dialect']) => Array<{ name: string; sql: string }> {
  return (dialect) => {
    const reaches = `select 1 from w_posts where w_posts.user_id = w_users.id and w_posts.views >= ${reaching}`
    const reachingForms =
      reaching === undefined
        ? []
        : [
            {
              name: 'exists (some post reaches the bound)',
              sql: `select ${USERS}, ${GROUPED_MAX} as posts_views_max from w_users where exists (${reaches}) ${tail}`,
            },
            {
              name: 'scalar probe (some post reaches the bound)',
              sql: `select ${USERS}, ${GROUPED_MAX} as posts_views_max from w_users where (${reaches} limit 1) is not null ${tail}`,
            },
          ]
    const forms = [
      {
        name: 'grouped scalar subquery',
        sql: `select ${USERS}, ${GROUPED_MAX} as posts_views_max from w_users ${where(GROUPED_MAX)} ${tail}`,
      },
    ]
    // PostgreSQL reads the ungrouped max as a backward walk of w_posts(views): minutes for users without posts.
    if (dialect !== 'postgres')
      forms.push({
        name: 'scalar subquery',
        sql: `select ${USERS}, ${SCALAR_MAX} as posts_views_max from w_users ${where(SCALAR_MAX)} ${tail}`,
      })
    const deferred = `select ${USERS}, ${GROUPED_MAX} as posts_views_max from (select w_users.id as k from w_users ${where(GROUPED_MAX)} ${tail}) as p`
    forms.push({
      name: 'deferred page (keys first, the max for the page only)',
      sql: `${deferred} inner join w_users on w_users.id = p.k order by w_users.id`,
    })
    if (dialect === 'postgres') {
      const lateral =
        'left join lateral (select max(w_posts.views) as v from w_posts where w_posts.user_id = w_users.id group by w_posts.user_id) as m on true'
      forms.push({
        name: 'lateral',
        sql: `select ${USERS}, m.v as posts_views_max from w_users ${lateral} ${where('m.v')} ${tail}`,
      })
    }
    return [...forms, ...reachingForms]
  }
}

const CASES: readonly AggregateCase[] = [
  {
    name: `postsViewsMax, page ${NO_POSTS_PAGE} of 50 (users without posts)`,
    request: `with[0]=postsViewsMax&orders[0][column]=id&limit=50&page=${NO_POSTS_PAGE}`,
    column: 'posts_views_max',
    forms: maxForms(() => '', page(NO_POSTS_PAGE)),
  },
  {
    name: 'postsViewsMax, page 20 of 50 (users with posts)',
    request: 'with[0]=postsViewsMax&orders[0][column]=id&limit=50&page=20',
    column: 'posts_views_max',
    forms: maxForms(() => '', page(20)),
  },
  {
    name: 'posts_views_max >= 99000, with postsViewsMax, first 50',
    request:
      'wheres[0][column]=posts_views_max&wheres[0][operator]=%3E%3D&wheres[0][value]=99000&with[0]=postsViewsMax&orders[0][column]=id&limit=50',
    column: 'posts_views_max',
    forms: maxForms((max) => `where (${max} >= 99000)`, page(1), 99_000),
  },
]

/**
 * Figure 16, part 1 (issue 35 point 3): declared `max` aggregates selected and filtered on a page of users, posts
 * indexed only on `(views)` and `(user_id)`: the library's SQL against the fastest expert form on the database,
 * each first checked to return the library's rows (target ≤ 1.2).
 */
export async function aggregateIndexCases(
  database: BenchDatabase,
  budget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  for (const aggregateCase of CASES) {
    const built = applyQueryParams(database.knex('w_users'), parseQueryParams(aggregateCase.request), worstRelationMap)
    const compiled = built.toSQL()
    const ours: Sql = { sql: compiled.sql, bindings: compiled.bindings }
    const mine = fingerprint(await run(database, ours), aggregateCase.column)
    if (fingerprint((await built) as Row[], aggregateCase.column) !== mine)
      throw new Error(`${FIGURE} '${aggregateCase.name}': the SQL as text returns other rows than the library`)
    const tried: Array<{ name: string; sql: Sql; ms: number }> = []
    for (const form of aggregateCase.forms(database.dialect)) {
      const sql = { sql: form.sql, bindings: [] }
      let rows: Row[] = []
      const ms = await timeOnce(async () => {
        rows = await run(database, sql)
      })
      if (fingerprint(rows, aggregateCase.column) !== mine)
        throw new Error(`${FIGURE} '${aggregateCase.name}' on ${database.dialect}: '${form.name}' returns other rows`)
      tried.push({ name: form.name, sql, ms: Math.min(ms, await timeOnce(() => run(database, sql))) })
    }
    tried.sort((a, b) => a.ms - b.ms)
    const best = tried[0]
    if (best === undefined) throw new Error(`${FIGURE}: no expert form`)
    const timing = await compare(
      () => run(database, ours),
      () => run(database, best.sql),
      budget,
    )
    const others = tried.map(({ name, ms }) => `${name} ${ms.toFixed(2)} ms`).join(', ')
    results.push(
      result({
        figure: FIGURE,
        name: aggregateCase.name,
        dialect: database.dialect,
        unit: 'ms',
        ours: measured("the library's SQL", timing.ours, 1),
        baseline: measured(`hand-written ${best.name}`, timing.baseline, 1),
        ratio: timing.ratio,
        target: { op: '<=', value: 1.2 },
        note: `posts indexed on (views) and (user_id) only; forms tried: ${others}`,
      }),
    )
    log(
      `  ${database.dialect} ${aggregateCase.name}: ${timing.ours.median.toFixed(2)} ms vs ${timing.baseline.median.toFixed(2)} ms (${best.name}) ×${timing.ratio.toFixed(3)}; ${others}`,
    )
  }
  return results
}

/** A seeded pseudo-random generator (mulberry32): the same requests on every run and database. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Field {
  path: string
  values: (next: () => number) => string[]
  operators: readonly string[]
}

const int =
  (max: number) =>
  (next: () => number): string[] => [String(Math.floor(next() * max))]
const FIELDS: Readonly<Record<'w_users' | 'w_posts' | 'w_comments', readonly Field[]>> = {
  w_users: [
    { path: 'id', values: int(WORST_SPEC.users), operators: ['=', '<', '>=', 'in', 'between'] },
    { path: 'score', values: (next) => [(next() * 100).toFixed(1)], operators: ['<', '>', 'between'] },
    { path: 'email', values: (next) => [`user${Math.floor(next() * 999)}%`], operators: ['like', '='] },
    { path: 'posts.views', values: int(100_000), operators: ['>', '<', '=', 'between'] },
    { path: 'posts.title', values: (next) => [`Post ${Math.floor(next() * 500)}%`], operators: ['like'] },
    {
      path: 'posts.comments.body',
      values: (next) => [`comment ${Math.floor(next() * 9999)}%`],
      operators: ['like', '='],
    },
    { path: 'posts_views_max', values: int(100_000), operators: ['>=', '<'] },
  ],
  w_posts: [
    { path: 'views', values: int(100_000), operators: ['>', '<', '=', 'between', 'in'] },
    { path: 'user_id', values: int(WORST_SPEC.users), operators: ['=', 'in'] },
    { path: 'title', values: (next) => [`Post ${Math.floor(next() * 5000)}%`], operators: ['like'] },
    { path: 'author.email', values: (next) => [`user${Math.floor(next() * 9999)}%`], operators: ['like', '='] },
    { path: 'author.score', values: (next) => [(next() * 100).toFixed(1)], operators: ['<', '>'] },
    { path: 'comments.body', values: (next) => [`comment ${Math.floor(next() * 9999)}%`], operators: ['like'] },
    { path: 'author.posts.views', values: int(100_000), operators: ['>', '='] },
  ],
  w_comments: [
    { path: 'post_id', values: int(WORST_SPEC.posts), operators: ['=', '<', 'in'] },
    { path: 'body', values: (next) => [`comment ${Math.floor(next() * 99999)}%`], operators: ['like'] },
    { path: 'post.views', values: int(100_000), operators: ['>', '<'] },
    { path: 'post.author.score', values: (next) => [(next() * 100).toFixed(1)], operators: ['<', '>'] },
  ],
}
const ORDERS: Readonly<Record<keyof typeof FIELDS, readonly string[]>> = {
  w_users: ['id', 'score', 'email', 'created_at', 'postsViewsMax', 'postsCount'],
  w_posts: ['id', 'views', 'created_at', 'author.email', 'commentsCount'],
  w_comments: ['id', 'post_id', 'post.views'],
}
const WITH: Readonly<Record<keyof typeof FIELDS, readonly string[]>> = {
  w_users: ['posts', 'postsCount', 'postsViewsMax', 'postsViewsSum'],
  w_posts: ['author', 'comments', 'commentsCount', 'commentsExists'],
  w_comments: ['post', 'post.author'],
}

/** One seeded random valid request: a table and its query string, as a client could send it under the default caps. */
export function randomRequest(next: () => number): { table: keyof typeof FIELDS; query: string } {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T
  const table = pick(['w_users', 'w_posts', 'w_comments'] as const)
  const parts: string[] = []
  const wheres = Math.floor(next() * 4)
  for (let i = 0; i < wheres; i++) {
    const field = pick(FIELDS[table])
    const operator = pick(field.operators)
    parts.push(`wheres[${i}][column]=${field.path}`, `wheres[${i}][operator]=${encodeURIComponent(operator)}`)
    if (next() < 0.2) parts.push(`wheres[${i}][boolean]=or`)
    if (operator === 'between') {
      const [low = '0'] = field.values(next)
      const [high = '0'] = field.values(next)
      const [a, b] = Number(low) <= Number(high) ? [low, high] : [high, low]
      parts.push(`wheres[${i}][value][0]=${a}`, `wheres[${i}][value][1]=${b}`)
    } else if (operator === 'in') {
      for (let k = 0; k < 3; k++)
        parts.push(`wheres[${i}][value][${k}]=${encodeURIComponent(field.values(next)[0] ?? '0')}`)
    } else {
      parts.push(`wheres[${i}][value]=${encodeURIComponent(field.values(next)[0] ?? '0')}`)
    }
  }
  if (next() < 0.3)
    parts.push(`relations_exists[0]=${pick(WITH[table].filter((name) => !/Count|Exists|Max|Sum/.test(name)))}`)
  const orders = Math.floor(next() * 3)
  for (let i = 0; i < orders; i++)
    parts.push(`orders[${i}][column]=${pick(ORDERS[table])}`, `orders[${i}][direction]=${pick(['asc', 'desc'])}`)
  const withs = Math.floor(next() * 3)
  for (let i = 0; i < withs; i++) parts.push(`with[${i}]=${pick(WITH[table])}`)
  parts.push(`limit=${pick([10, 20, 50, 100])}`, `page=${1 + Math.floor(next() * 20)}`)
  return { table, query: parts.join('&') }
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN

/**
 * Figure 16, part 2 (issue 35 point 5): `count` seeded random valid requests (seed 35) under the default caps and a
 * 5 s timeout, each read and eager-loaded as an endpoint does; p50, p99 and the maximum, and the slowest's SQL.
 * Context row: against a plain page of 20 users.
 */
export async function randomRequests(
  database: BenchDatabase,
  count: number,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const next = seeded(35)
  const times: Array<{ ms: number; table: string; query: string }> = []
  let timeouts = 0
  for (let i = 0; i < count; i++) {
    const { table, query } = randomRequest(next)
    const builder = applyQueryParams(database.knex(table), parseQueryParams(query), worstRelationMap, {
      timeout: 5_000,
    })
    const start = performance.now()
    try {
      await builder
    } catch (error) {
      if (!(error instanceof QueryTimeoutError)) throw new Error(`${FIGURE}: ${table}?${query}: ${String(error)}`)
      timeouts++
    }
    const ms = performance.now() - start
    times.push({ ms, table, query })
    if (ms > 2_000) log(`    #${i} ${ms.toFixed(0)} ms: /${table}?${query}`)
  }
  const sorted = times.map(({ ms }) => ms).sort((a, b) => a - b)
  const slowest = [...times].sort((a, b) => b.ms - a.ms)[0]
  const plain = await compare(
    () => database.knex('w_users').orderBy('id').limit(20),
    () => database.knex('w_users').orderBy('id').limit(20),
    { timeMs: 500, minSamples: 5 },
  )
  const p50 = percentile(sorted, 50)
  const p99 = percentile(sorted, 99)
  const max = sorted[sorted.length - 1] ?? NaN
  const over2s = sorted.filter((ms) => ms > 2_000).length
  const slowSql =
    slowest === undefined
      ? ''
      : applyQueryParams(database.knex(slowest.table), parseQueryParams(slowest.query), worstRelationMap).toSQL().sql
  log(
    `  ${database.dialect} ${count} random requests: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${max.toFixed(1)} ms, ${over2s} over 2 s, ${timeouts} timeouts`,
  )
  log(`    slowest: /${slowest?.table ?? ''}?${slowest?.query ?? ''}\n    ${slowSql}`)
  return [
    result({
      figure: FIGURE,
      name: `${count} seeded random valid requests (seed 35), default caps, timeout 5 s: p50 / p99`,
      dialect: database.dialect,
      unit: 'ms',
      ours: { label: 'random requests (median, p95 column = p99)', median: p50, p95: p99, samples: count },
      baseline: measured('a plain page of 20 users', plain.baseline),
      ratio: p50 / plain.baseline.median,
      note: `max ${max.toFixed(1)} ms, ${over2s} over 2 s, ${timeouts} timeouts; slowest: /${slowest?.table ?? ''}?${slowest?.query ?? ''}`,
    }),
  ]
}

/**
 * Figure 16, part 3 (issue 35 point 6, PostgreSQL): what JIT does to deep relation filters and aggregates. Each request
 * timed on sessions with `jit = on` (the server's default, `jit_above_cost` 100,000) and with `jit = off`.
 */
export async function jitCost(
  database: BenchDatabase,
  on: Knex,
  off: Knex,
  budget: Budget,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const deep = Array.from(
    { length: 10 },
    (_, i) =>
      `wheres[${i}][column]=author.posts.comments.body&wheres[${i}][operator]=like&wheres[${i}][value]=comment%20${i}7%25`,
  ).join('&')
  const cases = [
    {
      name: 'ten relation filters three deep (author.posts.comments.body like …), first 20',
      table: 'w_posts',
      request: `${deep}&limit=20`,
    },
    {
      name: 'users with postsViewsMax, postsViewsSum and postsCount, ordered by postsViewsSum, first 50',
      table: 'w_users',
      request:
        'with[0]=postsViewsMax&with[1]=postsViewsSum&with[2]=postsCount&orders[0][column]=postsViewsSum&orders[0][direction]=desc&limit=50',
    },
    {
      name: 'posts with commentsCount whose author has posts with views > 99990, first 50',
      table: 'w_posts',
      request:
        'wheres[0][column]=author.posts.views&wheres[0][operator]=%3E&wheres[0][value]=99990&with[0]=commentsCount&limit=50',
    },
  ]
  const results: BenchResult[] = []
  for (const jitCase of cases) {
    const sql = applyQueryParams(
      database.knex(jitCase.table),
      parseQueryParams(jitCase.request),
      worstRelationMap,
    ).toSQL()
    const timing = await compare(
      () => on.raw(sql.sql, sql.bindings),
      () => off.raw(sql.sql, sql.bindings),
      budget,
    )
    results.push(
      result({
        figure: FIGURE,
        name: `JIT: ${jitCase.name}`,
        dialect: 'postgres',
        unit: 'ms',
        ours: measured('jit = on (default)', timing.ours, 1),
        baseline: measured('jit = off', timing.baseline, 1),
        ratio: timing.ratio,
        note: 'context: the same SQL on a session with JIT on and one with JIT off',
      }),
    )
    log(
      `  postgres JIT ${jitCase.name}: on ${timing.ours.median.toFixed(1)} ms, off ${timing.baseline.median.toFixed(1)} ms (×${timing.ratio.toFixed(2)})`,
    )
  }
  return results
}
