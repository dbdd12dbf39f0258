/**
 * Issue 35 point 4, the routing of SQLite's bounded reads by their plan (`lib/dialect/sqlite-stoppable-read.ts`,
 * `sqlite-read-cost.ts`): on one database file (WAL), through the fetch integration in-process (a `Request`, its
 * `querySignal` with a timeout, `applyQueryParams`, the JSON `Response`), three knex instances configured with
 * `configureSqliteReads`: every read in-thread (`readers: false`), every read in a reader (`inThreadRows: 0`), routed
 * (the defaults). It measures, in the same run:
 * 1. the common request (a 20-row page by key, pages 1–40) on a 10,000-row table (cheap: routed in-thread), and a page by an indexed
 *    equality on a 200,000-row table (cheap), and a keyset page on the 200,000-row table (not provably cheap: a reader),
 *    interleaved, medians;
 * 2. what `explain query plan` costs: a statement's estimate uncached (explained) and cached;
 * 3. where in-thread stops beating the round trip: a statement reading N rows in-thread, against the reader round trip;
 * 4. the cold start: the first bounded read on a fresh file, routed (cheap, in-thread) and with every read in a reader;
 * 5. the worst request: in a reader stopped by a 500 ms timeout, and refused by the ceiling with readers off.
 *
 * `npx tsx bench/worst/sqlite-routing-design.ts` (its own temporary files; about a minute). Linux.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import knex, { type Knex } from 'knex'
import { type CostConnection, SqliteReadCost } from '../../lib/dialect/sqlite-read-cost.ts'
import { applyQueryParams, configureSqliteReads, defineRelationMap } from '../../lib/index.ts'
import { errorToResponse, queryParamsFromFetchRequest, querySignal } from '../../lib/integrations/fetch.ts'

const map = defineRelationMap({
  users: {
    columns: { id: 'integer', name: 'string' },
    relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
    aggregates: { postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' } },
  },
  posts: { columns: { id: 'integer', user_id: 'integer', title: 'string', body: 'string', views: 'integer' } },
  small: { columns: { id: 'integer', title: 'string', views: 'integer' } },
})

const WORST =
  '/users?orders[0][column]=postsViewsMax&orders[0][direction]=desc&wheres[0][column]=posts.title&wheres[0][operator]=like' +
  '&wheres[0][value]=%25zz%25&wheres[1][column]=name&wheres[1][operator]=like&wheres[1][value]=%25u1%25' +
  '&wheres[1][boolean]=or&limit=20'

async function build(db: Knex): Promise<void> {
  await db.raw('pragma journal_mode = wal')
  await db.raw('create table users (id integer primary key, name text not null)')
  await db.raw(
    'create table posts (id integer primary key, user_id integer not null, title text, body text, views integer)',
  )
  await db.raw('create table small (id integer primary key, title text, views integer)')
  await db.raw('create index posts_views on posts (views)')
  await db.raw(
    "insert into users with recursive s(g) as (select 1 union all select g + 1 from s where g < 2000) select g, 'u' || g from s",
  )
  await db.raw(
    'insert into posts with recursive s(g) as (select 1 union all select g + 1 from s where g < 200000) ' +
      "select g, g % 2000 + 1, 'p' || g, substr(hex(randomblob(60)), 1, 100), g * 7 % 100000 from s",
  )
  await db.raw(
    'insert into small with recursive s(g) as (select 1 union all select g + 1 from s where g < 10000) ' +
      "select g, 'p' || g, g * 7 % 1000 from s",
  )
}

/** The fetch integration's handler, in-process: every read carries the request's signal (a timeout, 5 s by default). */
function handler(db: Knex, timeout = 5000): (request: Request) => Promise<Response> {
  return async (request) => {
    try {
      const table = new URL(request.url).pathname.slice(1) as 'users' | 'posts' | 'small'
      const params = await queryParamsFromFetchRequest(request)
      const rows = await applyQueryParams(db(table), params, map, {
        signal: querySignal(request, { timeout }),
      })
      return Response.json({ data: rows })
    } catch (error) {
      return errorToResponse(error, { log: () => undefined }) ?? new Response(null, { status: 500 })
    }
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const µs = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(', ')

async function timed(handle: (request: Request) => Promise<Response>, path: string): Promise<number> {
  const start = performance.now()
  const response = await handle(new Request(`http://localhost${path}`))
  await response.arrayBuffer()
  const took = performance.now() - start
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return took
}

console.log(`load average at the start: ${load()}`)
const directory = mkdtempSync(join(tmpdir(), 'kqp-sqlite-routing-'))
const file = join(directory, 'routing.sqlite')
const open = (): Knex => knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
const setup = open()
await build(setup)
await setup.destroy()

// 4. The cold start, first: each instance is the first of its file's pools… the readers are per file, so the routed
// instance goes first, then the file's readers are let to end for the reader instance's own cold start below.
{
  const routedDb = open()
  const start = performance.now()
  await timed(handler(routedDb), '/small?orders[0][column]=id&limit=20&page=2')
  console.log(
    `cold start, routed: the first bounded read (a cheap page, in-thread) answered in ${(performance.now() - start).toFixed(1)} ms`,
  )
  await routedDb.destroy()
}
{
  const coldFile = join(directory, 'cold.sqlite')
  const seed = knex({ client: 'better-sqlite3', connection: { filename: coldFile }, useNullAsDefault: true })
  await seed.raw('create table small (id integer primary key, title text, views integer)')
  await seed.raw(
    "insert into small select value, 'p', 1 from (with recursive s(value) as (select 1 union all select value + 1 from s where value < 100) select value from s)",
  )
  configureSqliteReads(seed, { inThreadRows: 0 })
  const start = performance.now()
  await timed(handler(seed), '/small?orders[0][column]=id&limit=20&page=2')
  console.log(
    `cold start, every read in a reader: the first bounded read answered in ${(performance.now() - start).toFixed(1)} ms`,
  )
  await seed.destroy()
}

const inThread = open()
configureSqliteReads(inThread, { readers: false, maxInThreadRows: Number.POSITIVE_INFINITY })
const inReader = open()
configureSqliteReads(inReader, { inThreadRows: 0 })
const routed = open()
const ways = [
  ['in-thread', handler(inThread)],
  ['reader', handler(inReader)],
  ['routed', handler(routed)],
] as const
// Warm: readers started and settled.
for (const [, handle] of ways) await timed(handle, '/small?orders[0][column]=id&limit=20')
await new Promise((resolve) => setTimeout(resolve, 2000))

const cases: Array<[string, (round: number) => string]> = [
  ['20-row page by key, 10,000-row table', (round) => `/small?orders[0][column]=id&limit=20&page=${(round % 40) + 1}`],
  [
    '20-row page, indexed equality, 200,000-row table',
    (round) =>
      `/posts?wheres[0][column]=views&wheres[0][operator]=%3D&wheres[0][value]=${round % 1000}&orders[0][column]=views&limit=20`,
  ],
  [
    '20-row keyset page by id, 200,000-row table',
    (round) =>
      `/posts?wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=${(round * 7919) % 190000}&orders[0][column]=id&limit=20`,
  ],
]
const RUNS = 1500
for (const [name, path] of cases) {
  const times: Record<string, number[]> = { 'in-thread': [], reader: [], routed: [] }
  for (let round = 0; round < RUNS; round++)
    for (const [way, handle] of ways) times[way]?.push(await timed(handle, path(round)))
  const [thread, reader, route] = ['in-thread', 'reader', 'routed'].map((way) => median(times[way] ?? []))
  console.log(
    `${name}, ${RUNS} interleaved runs (median): in-thread ${µs(thread ?? NaN)}, reader ${µs(reader ?? NaN)}, ` +
      `routed ${µs(route ?? NaN)}; routed/in-thread ×${((route ?? NaN) / (thread ?? NaN)).toFixed(2)}, ` +
      `reader/in-thread ×${((reader ?? NaN) / (thread ?? NaN)).toFixed(2)}`,
  )
}

// 2. What the estimate costs, on a connection of its own.
{
  const connection = (await inThread.client.acquireConnection()) as CostConnection & {
    prepare(sql: string): { all(bindings: unknown[]): unknown[]; get(bindings: unknown[]): unknown }
  }
  const sql =
    'select `posts`.`id`, `posts`.`title` from `posts` where `posts`.`views` = ? order by `posts`.`views` asc limit 20'
  const uncached: number[] = []
  const cached: number[] = []
  const run: number[] = []
  for (let round = 0; round < 2000; round++) {
    const cost = new SqliteReadCost()
    let start = performance.now()
    cost.rows(connection, sql, [round % 1000])
    uncached.push(performance.now() - start)
    start = performance.now()
    cost.rows(connection, sql, [round % 1000])
    cached.push(performance.now() - start)
    start = performance.now()
    connection.prepare(sql).all([round % 1000])
    run.push(performance.now() - start)
  }
  console.log(
    `the estimate of a 20-row page by an indexed equality, 2000 runs (median): uncached (explain query plan and the ` +
      `table's facts) ${µs(median(uncached))}, cached ${µs(median(cached))}; the statement itself ${µs(median(run))}`,
  )

  // 3. In-thread time of a statement reading N rows (a like on every row), against the reader round trip above.
  for (const rows of [5000, 10_000, 20_000, 50_000, 100_000]) {
    const statement = connection.prepare(
      "select count(*) as n from (select * from posts where id <= ? and body like '%zz%zz%' limit 1000000)",
    )
    const times: number[] = []
    for (let round = 0; round < 50; round++) {
      const start = performance.now()
      statement.get([rows])
      times.push(performance.now() - start)
    }
    console.log(`in-thread, a like over ${rows.toLocaleString('en-US')} rows: median ${µs(median(times))}`)
  }
  await inThread.client.releaseConnection(connection)
}

// 5. The worst request.
{
  const worst: number[] = []
  for (let round = 0; round < 3; round++) {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const start = performance.now()
    const response = await handler(routed, 500)(new Request(`http://localhost${WORST}`))
    if (response.status !== 503) throw new Error(`the worst request answered ${response.status}`)
    worst.push(performance.now() - start)
  }
  console.log(
    `the worst request, routed (a reader), 500 ms timeout: answered 503 after ${worst.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  )
  const uncappedStart = performance.now()
  const uncapped = await handler(inThread, 60_000)(new Request(`http://localhost${WORST}`))
  const uncappedMs = performance.now() - uncappedStart
  if (uncapped.status !== 200) throw new Error(`expected the uncapped in-thread run to answer, got ${uncapped.status}`)
  configureSqliteReads(inThread, { readers: false })
  const start = performance.now()
  const response = await handler(inThread)(new Request(`http://localhost${WORST}`))
  const body = (await response.json()) as { code?: string }
  console.log(
    `the worst request in-thread without a ceiling took ${uncappedMs.toFixed(0)} ms (the process answered nothing ` +
      `else meanwhile); with the default ceiling (readers off) it was refused, ${response.status} ${body.code}, after ` +
      `${(performance.now() - start).toFixed(1)} ms`,
  )
}

console.log(`load average at the end: ${load()}`)
await Promise.all([inThread.destroy(), inReader.destroy(), routed.destroy()])
rmSync(directory, { recursive: true, force: true })
