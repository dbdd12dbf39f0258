/**
 * Issue 35's six opening figures, re-measured in one run: (1) a number out of the column's range, (2) a hot and a
 * cold key in a tenant's relation filter, (3) a declared `max` selected and filtered, (4) SQLite's fan-out request and
 * another tenant's answer while it runs, (5) 1,400 seeded random requests on MariaDB (figure 16's data), (6) a deep
 * request on PostgreSQL with JIT forced on (figure 16's data): its time, and how long the backend runs on after a
 * timeout or an abort. One line per figure per database.
 *
 * Figures 1–4 run on a two-tenant app this script builds on each database (as `sqlite-fan-out.ts`: users 10k with a
 * single-precision `score`, posts 120k, comments 150k, tags on a guarded pivot, global topics on an unguarded pivot
 * plus a hot and a cold topic, images morphOne, soft deletes, a guard on every guarded table; posts indexed on
 * `(views)` and `(user_id)` only, as figure 3 asks, then figures 2 and 4 again with `sqlite-fan-out.ts`'s
 * `posts (tenant_id)` index added): a temporary SQLite
 * file, and `kqp_bench_issue35` on each server, created and dropped here. Figures 5 and 6 read `kqp_bench_worst`
 * (figure 16's data, built by `npm run bench`) and are skipped when it is missing; it is never written to.
 *
 * `BENCH_POSTGRES_URL=postgres://… BENCH_MYSQL_URL=mysql://… npx tsx bench/worst/issue-figures.ts` (about 6 minutes
 * on a 2-core machine, 5 of them figure 5's; a server whose URL is missing is skipped).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import knex, { type Knex } from 'knex'
import {
  applyQueryParams,
  parseQueryParams,
  QueryParamsError,
  QueryTimeoutError,
  type RelationMap,
} from '../../lib/index.ts'
import {
  benchServers,
  OWNER_TABLE,
  openBenchDatabase,
  recreateBenchDatabase,
  serverKnex,
} from '../data/bench-servers.ts'
import { analyze } from '../data/ensure-dataset.ts'
import { sessionPool } from '../data/session-pool.ts'
import { twoTenantMap } from './two-tenant-map.ts'
import { worstRelationMap } from './worst-dataset.ts'
import { randomRequest, seeded } from './worst-request.ts'

type Dialect = 'sqlite' | 'postgres' | 'mysql'
interface Database {
  dialect: Dialect
  db: Knex
}

const NAME = 'issue35'
const started = performance.now()
const print = (line: string): void => console.log(line)
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')
const ms = (value: number): string => (value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(1)} ms`)
const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
const sleep = (millis: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, millis))

async function timed<T>(operation: () => PromiseLike<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now()
  try {
    const value = await operation()
    return { ms: performance.now() - start, value }
  } catch (error) {
    return { ms: performance.now() - start, error }
  }
}

/** What an error is, for a figure's line: the library's errors by class, status and code; anything else by its driver's code. */
function describeError(error: unknown): string {
  if (error instanceof QueryParamsError) return `QueryParamsError ${error.status} ${error.code}`
  if (error instanceof QueryTimeoutError) return `QueryTimeoutError ${error.status} ${error.code}`
  if (error instanceof Error) {
    const { code, errno } = error as Error & { code?: unknown; errno?: unknown }
    return `FAIL ${error.constructor.name} code=${String(code ?? errno ?? '-')}: ${error.message.slice(-120)}`
  }
  return `FAIL ${String(error)}`
}

// ---------------------------------------------------------------------------------------------------------------
// The two-tenant app of figures 1–4.

/** The app's schema and rows on `dialect`: the same values on every database (64-bit arithmetic everywhere). */
function appSql(dialect: Dialect): string[] {
  const my = dialect === 'mysql'
  const id = my ? 'int' : 'integer'
  const text = my ? 'varchar(100)' : 'text'
  const short = my ? 'varchar(40)' : 'text'
  const real = my ? 'float' : 'real' // single precision, as PostgreSQL's `real` (knex `float()`)
  const cat = (...parts: string[]): string => (my ? `concat(${parts.join(', ')})` : parts.join(' || '))
  const insert = (
    table: string,
    count: number,
    select: string,
    options: { cross?: string; where?: string; ignore?: boolean } = {},
  ): string => {
    const from =
      dialect === 'postgres'
        ? `generate_series(1::bigint, ${count}) as s(g)`
        : my
          ? `(select seq as g from seq_1_to_${count}) as s`
          : 's'
    const prefix =
      dialect === 'sqlite' ? `with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) ` : ''
    const head =
      options.ignore === true
        ? my
          ? 'insert ignore into'
          : dialect === 'sqlite'
            ? 'insert or ignore into'
            : 'insert into'
        : 'insert into'
    const tail = options.ignore === true && dialect === 'postgres' ? ' on conflict do nothing' : ''
    const cross = options.cross === undefined ? '' : `, ${options.cross}`
    const where = options.where === undefined ? '' : ` where ${options.where}`
    return `${prefix}${head} ${table} select ${select} from ${from}${cross}${where}${tail}`
  }
  return [
    `create table users (id ${id} not null primary key, tenant_id ${id} not null, email ${text} not null, score ${real}, deleted_at ${short})`,
    `create table posts (id ${id} not null primary key, tenant_id ${id} not null, user_id ${id} not null, title ${text}, views ${id}, deleted_at ${short})`,
    `create table comments (id ${id} not null primary key, tenant_id ${id} not null, post_id ${id} not null, body ${text}, deleted_at ${short})`,
    `create table tags (id ${id} not null primary key, tenant_id ${id} not null, name ${text}, deleted_at ${short})`,
    `create table post_tag (post_id ${id} not null, tag_id ${id} not null, tenant_id ${id} not null, deleted_at ${short}, primary key (post_id, tag_id))`,
    `create table topics (id ${id} not null primary key, slug ${short} not null)`,
    `create table post_topic (post_id ${id} not null, topic_id ${id} not null, primary key (post_id, topic_id))`,
    `create table images (id ${id} not null primary key, tenant_id ${id} not null, imageable_type ${short} not null, imageable_id ${id} not null, url ${text} not null, deleted_at ${short})`,
    insert(
      'users',
      10_000,
      `g, 1 + (g % 2), ${cat("'user'", 'g', "'@example.com'")}, ((g * 2246822519) % 1000) / 10.0, case when g % 50 = 0 then '2024-01-01' end`,
    ),
    insert(
      'posts',
      120_000,
      `g, 1 + (g % 2), ((g * 7919) % 5000) * 2 + 2 - (g % 2), ${cat("'Post '", 'g')}, (g * 2654435761) % 100000, case when g % 40 = 0 then '2024-01-01' end`,
    ),
    insert(
      'comments',
      150_000,
      `g, 1 + (((g * 31) % 120000 + 1) % 2), (g * 31) % 120000 + 1, ${cat("'comment '", '((g * 2246822519) % 100000)')}, null`,
    ),
    insert('tags', 400, `g, 1 + (g % 2), ${cat("'tag '", 'g')}, null`),
    insert('post_tag', 120_000, `g, ((g * 13 + k) % 200) * 2 + 2 - (g % 2), 1 + (g % 2), null`, {
      cross: '(select 0 as k union all select 7 union all select 31) as ks',
      ignore: true,
    }),
    insert('topics', 50, `g, ${cat("'topic-'", 'g')}`),
    "insert into topics (id, slug) values (51, 'topic-hot'), (52, 'topic-cold')",
    insert('post_topic', 120_000, 'g, 1 + ((g * 17 + k) % 50)', {
      cross: '(select 0 as k union all select 11) as ks',
      ignore: true,
    }),
    // topic-hot: 20,000 of tenant 1's posts and 5 of tenant 2's; topic-cold: 4 of tenant 2's.
    insert('post_topic', 120_000, 'g, 51', { where: 'g % 6 = 0' }),
    'insert into post_topic (post_id, topic_id) values (1, 51), (3, 51), (5, 51), (7, 51), (9, 51), (11, 52), (13, 52), (15, 52), (17, 52)',
    insert(
      'images',
      120_000,
      `g, 1 + (g % 2), 'Post', g, ${cat("(case (g * 7) % 5 when 0 then 'alpha' when 1 then 'beta' when 2 then 'gamma' when 3 then 'delta' else 'eps' end)", "'/'", 'g', "'.png'")}, null`,
      { where: 'g % 2 = 0' },
    ),
    'create unique index users_email on users (email)',
    'create index posts_user on posts (user_id)',
    'create index posts_views on posts (views)',
    'create index comments_post on comments (post_id)',
    'create index post_tag_tag on post_tag (tag_id, post_id)',
    'create unique index topics_slug on topics (slug)',
    'create index post_topic_topic on post_topic (topic_id, post_id)',
    'create index images_imageable on images (imageable_type, imageable_id)',
  ]
}
const APP_TABLES = ['users', 'posts', 'comments', 'tags', 'post_tag', 'topics', 'post_topic', 'images']

async function buildApp(database: Database): Promise<void> {
  const start = performance.now()
  for (const statement of appSql(database.dialect)) await database.db.raw(statement)
  await analyze(database.db, database.dialect, APP_TABLES)
  print(`setup ${database.dialect}: two-tenant app built in ${ms(performance.now() - start)}`)
}

/** The request `query` on `table` as tenant `tenant` (1 unless told), read as an endpoint does. */
const request = (
  { db }: Database,
  table: string,
  query: string,
  options: { tenant?: number; timeout?: number; signal?: AbortSignal } = {},
): Knex.QueryBuilder =>
  applyQueryParams(db(table), parseQueryParams(query), twoTenantMap, {
    context: { tenant: options.tenant ?? 1 },
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })

const outcome = (result: { ms: number; value?: unknown; error?: unknown }): string =>
  result.error === undefined
    ? `${(result.value as unknown[]).length} rows in ${ms(result.ms)}`
    : `${describeError(result.error)} after ${ms(result.ms)}`

// ---------------------------------------------------------------------------------------------------------------
// Figures 1–4.

async function figure1(database: Database): Promise<void> {
  const cases: Array<[string, string]> = [
    ['users score < 3.5e38', 'wheres[0][column]=score&wheres[0][operator]=%3C&wheres[0][value]=3.5e38'],
    ['users score < -1e39', 'wheres[0][column]=score&wheres[0][operator]=%3C&wheres[0][value]=-1e39'],
    ['users score < 1e-46', 'wheres[0][column]=score&wheres[0][operator]=%3C&wheres[0][value]=1e-46'],
    ['users score < 1e-320', 'wheres[0][column]=score&wheres[0][operator]=%3C&wheres[0][value]=1e-320'],
    ['posts author.score > 1e308', 'wheres[0][column]=author.score&wheres[0][operator]=%3E&wheres[0][value]=1e308'],
  ]
  const parts: string[] = []
  let failures = 0
  for (const [name, query] of cases) {
    const table = name.startsWith('posts') ? 'posts' : 'users'
    const result = await timed(() => request(database, table, `${query}&limit=1000`, { timeout: 10_000 }))
    if (result.error !== undefined && !(result.error instanceof QueryParamsError)) failures++
    parts.push(
      `${name}: ${result.error === undefined ? `${(result.value as unknown[]).length} rows` : describeError(result.error)}`,
    )
  }
  print(`figure 1 ${database.dialect}: ${failures === 0 ? 'ok' : `${failures} FAILED`}; ${parts.join('; ')}`)
}

async function figure2(database: Database, label = ''): Promise<void> {
  const query = (slug: string): string => `wheres[0][column]=topics.slug&wheres[0][value]=${slug}&limit=20`
  const send = (slug: string) => request(database, 'posts', query(slug), { tenant: 2 })
  const statements = async (slug: string): Promise<string[]> => {
    const sent: string[] = []
    const listener = (data: { sql: string; bindings?: unknown[] }): void => {
      const bindings = (data.bindings ?? []).map((value) => (value === slug ? '<slug>' : value))
      sent.push(`${data.sql} ${JSON.stringify(bindings)}`)
    }
    database.db.on('query', listener)
    try {
      await send(slug)
    } finally {
      database.db.removeListener('query', listener)
    }
    return sent
  }
  const hotSql = await statements('topic-hot')
  const coldSql = await statements('topic-cold')
  const same = hotSql.length === coldSql.length && hotSql.every((sql, index) => sql === coldSql[index])
  for (let i = 0; i < 3; i++) {
    await send('topic-hot')
    await send('topic-cold')
  }
  const hot: number[] = []
  const cold: number[] = []
  let hotRows = 0
  let coldRows = 0
  for (let i = 0; i < 20; i++) {
    const first = i % 2 === 0 ? 'topic-hot' : 'topic-cold'
    for (const slug of [first, first === 'topic-hot' ? 'topic-cold' : 'topic-hot']) {
      const result = await timed(() => send(slug))
      if (result.error !== undefined) throw result.error
      const rows = (result.value as unknown[]).length
      if (slug === 'topic-hot') {
        hot.push(result.ms)
        hotRows = rows
      } else {
        cold.push(result.ms)
        coldRows = rows
      }
    }
  }
  const hotMedian = median(hot)
  const coldMedian = median(cold)
  print(
    `figure 2 ${database.dialect}${label}: tenant 2, topics.slug = topic-hot ${ms(hotMedian)} (${hotRows} rows) vs topic-cold ${ms(coldMedian)} (${coldRows} rows), medians of 20 interleaved; hot/cold ×${(hotMedian / coldMedian).toFixed(2)}; SQL sent ${same ? `the same (${hotSql.length} statement(s))` : `DIFFERENT (${hotSql.length} vs ${coldSql.length} statements)`}`,
  )
  if (!same) {
    print(`  hot:  ${hotSql.join('\n        ')}`)
    print(`  cold: ${coldSql.join('\n        ')}`)
  }
}

async function figure3(database: Database): Promise<void> {
  const cases: Array<[string, string]> = [
    ['with postsViewsMax, limit 50, page 20', 'with[0]=postsViewsMax&limit=50&page=20'],
    ['posts_views_max >= 161', 'wheres[0][column]=posts_views_max&wheres[0][operator]=%3E%3D&wheres[0][value]=161'],
  ]
  const parts: string[] = []
  for (const [name, query] of cases) {
    const times: number[] = []
    let last = ''
    for (let run = 0; run < 6; run++) {
      const result = await timed(() => request(database, 'users', query, { timeout: 10_000 }))
      if (result.error !== undefined) {
        last = describeError(result.error)
        times.push(result.ms)
        break
      }
      last = `${(result.value as unknown[]).length} rows`
      if (run > 0) times.push(result.ms) // the first is the warm-up
    }
    parts.push(`${name}: ${times.length > 1 ? `median of ${times.length} ` : ''}${ms(median(times))} (${last})`)
  }
  print(`figure 3 ${database.dialect}: timeout 10 s; ${parts.join('; ')}`)
}

const FAN_OUT =
  'wheres[0][column]=tags.posts.cover.url&wheres[0][operator]=like&wheres[0][value]=delta%25&relations_exists[0]=author&orders[0][column]=author.email&orders[0][direction]=asc&with[0]=topicsCount&page=11'

async function figure4(database: Database, label = ''): Promise<void> {
  // Bounded first: a regression that takes minutes is stopped at 10 s instead of holding the run (on SQLite the
  // bounded read goes to a reader process, and starts the file's readers for the rest of this figure).
  const bounded = await timed(() => request(database, 'posts', FAN_OUT, { timeout: 10_000 }))
  let line = `figure 4 ${database.dialect}${label}: tags.posts.cover.url like 'delta%', page 11: bounded (timeout 10 s) ${outcome(bounded)}`
  if (bounded.error === undefined && bounded.ms < 5_000) {
    const times: number[] = []
    for (let run = 0; run < 3; run++) {
      const result = await timed(() => request(database, 'posts', FAN_OUT))
      if (result.error !== undefined) throw result.error
      times.push(result.ms)
    }
    line += `; unbounded median of 3 ${ms(median(times))}`
  }
  if (database.dialect !== 'sqlite' || label !== '') {
    print(line)
    return
  }
  const warm = await timed(() => request(database, 'users', 'limit=5', { tenant: 2, timeout: 5_000 }))
  const slow = timed(() => request(database, 'posts', FAN_OUT, { timeout: 500 }))
  let slowEnded = false
  void slow.then(() => {
    slowEnded = true
  })
  await sleep(50)
  const startedAfterSlow = !slowEnded
  const other = await timed(() => request(database, 'users', 'limit=5', { tenant: 2, timeout: 5_000 }))
  const slowResult = await slow
  line += `; with timeout 500 ms: ${outcome(slowResult)}; meanwhile tenant 2's users?limit=5 (timeout 5 s, sent 50 ms in${startedAfterSlow ? '' : ', after the slow one had ended'}): ${outcome(other)} (alone: ${outcome(warm)})`
  print(line)
}

// ---------------------------------------------------------------------------------------------------------------
// Figures 5 and 6, on figure 16's data.

async function figure5(db: Knex): Promise<void> {
  const next = seeded(35)
  const times: number[] = []
  let timeouts = 0
  let errors = 0
  let firstError = ''
  const slowest: Array<{ ms: number; request: string }> = []
  const start = performance.now()
  for (let i = 0; i < 1_400; i++) {
    const { table, query } = randomRequest(next)
    const result = await timed(() =>
      applyQueryParams(db(table), parseQueryParams(query), worstRelationMap, { timeout: 5_000 }),
    )
    if (result.error instanceof QueryTimeoutError) timeouts++
    else if (result.error !== undefined) {
      errors++
      if (firstError === '') firstError = `${describeError(result.error)} on /${table}?${query}`
    }
    times.push(result.ms)
    if (result.ms > 2_000) slowest.push({ ms: result.ms, request: `#${i} /${table}?${query}` })
  }
  const sorted = [...times].sort((a, b) => a - b)
  print(
    `figure 5 mysql: 1400 seeded random requests (seed 35) on kqp_bench_worst, timeout 5 s, in ${ms(performance.now() - start)}: ${timeouts} timeouts, ${sorted.filter((value) => value > 2_000).length} over 2 s, p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}${errors > 0 ? `; ${errors} OTHER ERRORS, first: ${firstError}` : ''}`,
  )
  for (const each of slowest.sort((a, b) => b.ms - a.ms).slice(0, 5)) print(`  ${ms(each.ms)} ${each.request}`)
}

const JIT_ON = [
  'set jit = on',
  'set jit_above_cost = 0',
  'set jit_inline_above_cost = 0',
  'set jit_optimize_above_cost = 0',
].join('; ')

async function figure6(url: string): Promise<void> {
  const admin = serverKnex('postgres', url, 'kqp_bench_worst', 2)
  const jit = sessionPool(admin.client.config, JIT_ON)
  try {
    const deep = Array.from(
      { length: 10 },
      (_, i) =>
        `wheres[${i}][column]=author.posts.comments.body&wheres[${i}][operator]=like&wheres[${i}][value]=comment%20${i}7%25`,
    ).join('&')
    const query = parseQueryParams(`${deep}&limit=20`)
    const send = (options: { timeout?: number; signal?: AbortSignal }) =>
      applyQueryParams(jit('w_posts'), query, worstRelationMap, options)
    const pid = async (): Promise<number> =>
      ((await jit.raw('select pg_backend_pid() as pid')) as { rows: Array<{ pid: number }> }).rows[0]?.pid ?? 0
    const active = async (backend: number): Promise<boolean> => {
      const result = (await admin.raw(
        "select 1 from pg_stat_activity where pid = ? and state = 'active' and query like '%w_comments%'",
        [backend],
      )) as { rows: unknown[] }
      return result.rows.length > 0
    }
    /** Milliseconds from now until backend `backend` no longer runs the statement (polled every 10 ms, up to 20 s). */
    const activeFor = async (backend: number): Promise<number> => {
      const start = performance.now()
      while (await active(backend)) {
        if (performance.now() - start > 20_000) return Number.POSITIVE_INFINITY
        await sleep(10)
      }
      return performance.now() - start
    }
    const library: number[] = []
    let rows = ''
    for (let run = 0; run < 4; run++) {
      const result = await timed(() => send({ timeout: 5_000 }))
      rows = result.error === undefined ? `${(result.value as unknown[]).length} rows` : describeError(result.error)
      if (run > 0 || result.error !== undefined) library.push(result.ms)
      if (result.error !== undefined) break
    }
    const sql = send({}).toSQL()
    const raw = await timed(() => jit.raw(sql.sql, sql.bindings).timeout(30_000, { cancel: true }))
    const rawRows =
      raw.error === undefined ? `${(raw.value as { rows: unknown[] }).rows.length} rows` : describeError(raw.error)
    const explained = (await jit.raw(`explain (analyze, format json) ${sql.sql}`, sql.bindings)) as {
      rows: Array<{ 'QUERY PLAN': Array<{ JIT?: { Functions: number; Timing: { Total: number } } }> }>
    }
    const plan = explained.rows[0]?.['QUERY PLAN'][0]?.JIT
    const line = `figure 6 postgres: JIT forced on the pool; ten relation filters three deep: the library (timeout 5 s) median of ${library.length} ${ms(median(library))} (${rows}); the same SQL raw on that pool ${ms(raw.ms)} (${rawRows}; EXPLAIN ANALYZE: ${plan === undefined ? 'no JIT' : `${plan.Functions} JIT functions, ${ms(plan.Timing.Total)} of JIT`})`

    print(line)

    // The same request as is (without JIT it may end before 300 ms), then with a scope that sleeps 5 s once before the
    // rows (an InitPlan: PostgreSQL's one-time filter), so that the statement still runs when the timeout or the abort
    // comes; a cancel that does not reach it leaves it active for those 5 s.
    const sleeping: RelationMap = {
      ...worstRelationMap,
      w_posts: {
        ...worstRelationMap.w_posts,
        scopes: { slow: (q: Knex.QueryBuilder) => void q.whereRaw('(select pg_sleep(5)) is not null') },
      },
    }
    for (const [name, withScope] of [
      ['as is', false],
      ['with a sleeping scope', true],
    ] as const) {
      const bound = (options: { timeout?: number; signal?: AbortSignal }) =>
        withScope
          ? applyQueryParams(jit('w_posts'), parseQueryParams(`${deep}&scopes[0]=slow&limit=20`), sleeping, options)
          : send(options)
      const timeoutBackend = await pid()
      const timeout = await timed(() => bound({ timeout: 300 }))
      const afterTimeout = await activeFor(timeoutBackend)
      let cancelLine = `figure 6 postgres: JIT forced on, ${name}: timeout 300 ms: ${outcome(timeout)}, backend ${timeout.error instanceof QueryTimeoutError ? `active ${ms(afterTimeout)} after the rejection` : `idle ${ms(afterTimeout)} after (nothing to cancel)`}`
      const abortBackend = await pid()
      const controller = new AbortController()
      const aborting = timed(() => bound({ signal: controller.signal }))
      await sleep(300)
      const wasActive = await active(abortBackend)
      const abortedAt = performance.now()
      controller.abort(new Error('client gone'))
      const aborted = await aborting
      const rejectedAfter = performance.now() - abortedAt
      const afterAbort = await activeFor(abortBackend)
      cancelLine += `; AbortSignal aborted at 300 ms (the statement ${wasActive ? 'running' : 'no longer running'} then): ${aborted.error === undefined ? `${(aborted.value as unknown[]).length} rows before it, backend idle ${ms(afterAbort)} after (nothing to cancel)` : `rejected ${ms(rejectedAfter)} after the abort, backend active ${ms(afterAbort)} after the rejection`}`
      print(cancelLine)
    }
  } finally {
    await jit.destroy()
    await admin.destroy()
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function worstExists(dialect: 'postgres' | 'mysql', url: string): Promise<boolean> {
  const probe = serverKnex(dialect, url, dialect === 'postgres' ? 'postgres' : '', 1)
  try {
    if (dialect === 'postgres') {
      const found = (await probe.raw("select 1 from pg_database where datname = 'kqp_bench_worst'")) as {
        rows: unknown[]
      }
      return found.rows.length > 0
    }
    const [rows] = (await probe.raw(
      "select 1 from information_schema.tables where table_schema = 'kqp_bench_worst' and table_name = 'w_posts'",
    )) as [unknown[]]
    return rows.length > 0
  } finally {
    await probe.destroy()
  }
}

/** Drops `kqp_bench_issue35` on the server of `url`, only when it holds this bench's owner table. */
async function dropApp(dialect: 'postgres' | 'mysql', url: string, db: Knex): Promise<void> {
  const owned =
    dialect === 'postgres'
      ? (
          (await db.raw('select 1 from information_schema.tables where table_name = ?', [OWNER_TABLE])) as {
            rows: unknown[]
          }
        ).rows.length > 0
      : (
          (await db.raw('select 1 from information_schema.tables where table_schema = database() and table_name = ?', [
            OWNER_TABLE,
          ])) as [unknown[]]
        )[0].length > 0
  await db.destroy()
  if (!owned) return
  const admin = serverKnex(dialect, url, dialect === 'postgres' ? 'postgres' : '', 1)
  try {
    await admin.raw(
      dialect === 'postgres'
        ? 'drop database if exists kqp_bench_issue35 with (force)'
        : 'drop database if exists kqp_bench_issue35',
    )
  } finally {
    await admin.destroy()
  }
}

const servers = benchServers(process.env)
print(`issue 35's figures, ${new Date().toISOString()}, load average ${load()}, node ${process.version}`)
const directory = mkdtempSync(join(tmpdir(), 'kqp-issue35-'))
const databases: Database[] = [
  {
    dialect: 'sqlite',
    db: knex({
      client: 'better-sqlite3',
      connection: { filename: join(directory, 'app.sqlite') },
      useNullAsDefault: true,
    }),
  },
]
try {
  for (const dialect of ['postgres', 'mysql'] as const) {
    const url = servers[dialect]
    if (url === undefined) {
      print(`setup ${dialect}: no BENCH_${dialect === 'postgres' ? 'POSTGRES' : 'MYSQL'}_URL, skipped`)
      continue
    }
    const opened = await openBenchDatabase(dialect, url, NAME)
    databases.push({ dialect, db: await recreateBenchDatabase(dialect, url, NAME, opened) })
  }
  await (databases[0] as Database).db.raw('pragma journal_mode = wal')
  for (const database of databases) await buildApp(database)
  for (const database of databases) await figure1(database)
  for (const database of databases) await figure2(database)
  for (const database of databases) await figure3(database)
  for (const database of databases) await figure4(database)
  // sqlite-fan-out.ts's schema also indexes posts (tenant_id), which figure 3 leaves out: figures 2 and 4 again with it.
  const TENANT_INDEX = ' (+ posts(tenant_id) index)'
  for (const database of databases) {
    await database.db.raw('create index posts_tenant on posts (tenant_id)')
    await analyze(database.db, database.dialect, ['posts'])
  }
  for (const database of databases) await figure2(database, TENANT_INDEX)
  for (const database of databases) await figure4(database, TENANT_INDEX)
} finally {
  for (const database of databases) {
    const url = database.dialect === 'sqlite' ? undefined : servers[database.dialect]
    if (url === undefined || database.dialect === 'sqlite') await database.db.destroy()
    else await dropApp(database.dialect, url, database.db)
  }
  rmSync(directory, { recursive: true, force: true })
}

if (servers.mysql === undefined) print('figure 5 mysql: no BENCH_MYSQL_URL, skipped')
else if (!(await worstExists('mysql', servers.mysql)))
  print('figure 5 mysql: kqp_bench_worst does not exist on the server (figure 16 builds it), skipped')
else {
  const worst = serverKnex('mysql', servers.mysql, 'kqp_bench_worst')
  try {
    await figure5(worst)
  } finally {
    await worst.destroy()
  }
}

if (servers.postgres === undefined) print('figure 6 postgres: no BENCH_POSTGRES_URL, skipped')
else if (!(await worstExists('postgres', servers.postgres)))
  print('figure 6 postgres: kqp_bench_worst does not exist on the server (figure 16 builds it), skipped')
else await figure6(servers.postgres)

print(`done in ${ms(performance.now() - started)}, load average ${load()}, ${new Date().toISOString()}`)
