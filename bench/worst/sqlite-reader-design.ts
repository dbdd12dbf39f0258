/**
 * Issue 35 point 4: measures the design the library chose to bound SQLite, a bounded read run in a reader process
 * (`lib/dialect/sqlite-reader-pool.ts`) on a database file, through `applyQueryParams`:
 * 1. what the reader adds to a common request: a 20-row and a 1,000-row page by key, the same request with a `timeout`
 *    (in a reader) and without (on the calling thread), interleaved, medians;
 * 2. how soon a timeout and an abort end the statement: the time from the call to the rejection, and to the reader
 *    process that ran it being gone (its `/proc` entry, polled every millisecond);
 * 3. that the process keeps answering while a slow request runs: a concurrent trivial request, with a timeout (in
 *    another reader) and without (on the calling thread), and 10 ms timers.
 *
 * `npx tsx bench/worst/sqlite-reader-design.ts` (its own temporary SQLite file, WAL; about 30 s). Linux (`/proc`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import knex from 'knex'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../../lib/index.ts'

const SLOW =
  '(with recursive n(i) as (select 1 union all select i + 1 from n where i < 300000000) select count(*) from n) > 0'

const map = defineRelationMap({
  posts: {
    columns: {
      id: 'integer',
      user_id: 'integer',
      title: 'string',
      body: 'string',
      views: 'integer',
      score: 'number',
      published: 'boolean',
      created_at: 'datetime',
    },
    scopes: { slow: (query) => void query.whereRaw(SLOW) },
  },
})

const directory = mkdtempSync(join(tmpdir(), 'kqp-sqlite-reader-'))
const file = join(directory, 'design.sqlite')
const db = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
await db.raw('pragma journal_mode = wal')
await db.raw(
  'create table posts (id integer primary key, user_id integer not null, title text not null, body text not null, ' +
    'views integer not null, score real, published integer not null, created_at text not null)',
)
await db.raw(
  'insert into posts with recursive s(g) as (select 1 union all select g + 1 from s where g < 200000) ' +
    "select g, g % 5000, 'Post ' || g, substr(hex(randomblob(60)), 1, 100), (g * 7919) % 100000, g / 7.0, g % 2, " +
    "datetime('2020-01-01', '+' || g || ' minutes') from s",
)

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const µs = (ms: number): string => `${(ms * 1000).toFixed(0)} µs`

async function page(limit: number, key: number, bounded: boolean): Promise<number> {
  const params = parseQueryParams(
    `wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=${key}&wheres[0][boolean]=and&orders[0][column]=id&limit=${limit}`,
  )
  const start = performance.now()
  const rows = await applyQueryParams(db('posts'), params, map, bounded ? { timeout: 5000 } : {})
  const took = performance.now() - start
  if (rows.length !== limit) throw new Error(`expected ${limit} rows, got ${rows.length}`)
  return took
}

console.log(
  `load average at the start: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}`,
)
// Starts the readers (the first bounded read starts two processes).
const startStart = performance.now()
await page(20, 1, true)
console.log(`first bounded read (starts the readers): ${(performance.now() - startStart).toFixed(0)} ms`)

for (const [limit, runs] of [
  [20, 2000],
  [1000, 300],
] as const) {
  const inThread: number[] = []
  const inReader: number[] = []
  for (let round = 0; round < runs; round++) {
    const key = (round * 7919) % (200000 - limit - 1)
    inThread.push(await page(limit, key, false))
    inReader.push(await page(limit, key, true))
  }
  const thread = median(inThread)
  const reader = median(inReader)
  console.log(
    `${limit}-row page by key, ${runs} interleaved runs (median): on the calling thread ${µs(thread)}, ` +
      `with a timeout (reader process) ${µs(reader)}: +${µs(reader - thread)}, ×${(reader / thread).toFixed(2)}`,
  )
}

/** The pids of this process's reader processes. */
function readers(): Set<number> {
  const found = new Set<number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (parent !== process.pid) continue
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('SQLite reader')) found.add(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return found
}

/** Milliseconds from `since` until one of `pids` is gone (polled every millisecond). */
async function oneGone(pids: Set<number>, since: number): Promise<number> {
  for (;;) {
    for (const pid of pids) if (!existsSync(`/proc/${pid}`)) return performance.now() - since
    if (performance.now() - since > 30_000) throw new Error('no reader ended')
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
}

const slow = parseQueryParams('scopes[0]=slow&limit=1')
for (const how of ['timeout', 'abort'] as const) {
  const stops: number[] = []
  const gone: number[] = []
  for (let round = 0; round < 5; round++) {
    await new Promise((resolve) => setTimeout(resolve, 300)) // the replacement reader starts
    const before = readers()
    const controller = new AbortController()
    const start = performance.now()
    const options = how === 'timeout' ? { timeout: 300 } : { signal: controller.signal }
    if (how === 'abort') setTimeout(() => controller.abort(new Error('client gone')), 300)
    const rejected = await applyQueryParams(db('posts'), slow, map, options).then(
      () => false,
      () => true,
    )
    if (!rejected) throw new Error('the slow request resolved')
    const rejectedAt = performance.now()
    stops.push(rejectedAt - start - 300)
    gone.push(await oneGone(before, rejectedAt))
  }
  console.log(
    `${how} at 300 ms of a statement of several seconds, 5 runs: rejected ${stops.map((ms) => ms.toFixed(1)).join(', ')} ms ` +
      `after it; its reader process gone ${gone.map((ms) => ms.toFixed(1)).join(', ')} ms after the rejection`,
  )
}

{
  await new Promise((resolve) => setTimeout(resolve, 300))
  const controller = new AbortController()
  let ticks = 0
  const timer = setInterval(() => ticks++, 10)
  const slowStart = performance.now()
  const running = applyQueryParams(db('posts'), slow, map, { signal: controller.signal }).catch(() => undefined)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const bounded: number[] = []
  const unbounded: number[] = []
  for (let round = 0; round < 50; round++) {
    bounded.push(await page(20, round * 100, true))
    unbounded.push(await page(20, round * 100, false))
  }
  const during = performance.now() - slowStart
  controller.abort()
  await running
  clearInterval(timer)
  console.log(
    `while a slow request ran (${during.toFixed(0)} ms): 50 concurrent 20-row pages with a timeout (another reader) ` +
      `median ${µs(median(bounded))}, max ${(Math.max(...bounded)).toFixed(1)} ms; without (calling thread) median ` +
      `${µs(median(unbounded))}; ${ticks} 10 ms timers ran`,
  )
}

console.log(
  `load average at the end: ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}`,
)
await db.destroy()
rmSync(directory, { recursive: true, force: true })
