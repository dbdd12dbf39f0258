/**
 * Issue 35 point 4: measures the one design that can keep a slow SQLite statement from stopping the process,
 * better-sqlite3 in a worker thread (better-sqlite3 has no progress handler and no interrupt; Node 20 has no
 * node:sqlite): the cost it adds to a common request (a 20-row page by key) and how soon `worker.terminate()`
 * ends a statement that runs for seconds, while the main thread answers a timer.
 *
 * `npx tsx bench/worst/sqlite-worker-design.ts` (its own temporary SQLite file; about 20 s).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { createRequire } from 'node:module'

interface Statement {
  all(...bindings: unknown[]): unknown[]
  get(...bindings: unknown[]): unknown
}
interface SqliteDatabase {
  exec(sql: string): void
  prepare(sql: string): Statement
  close(): void
}
const require = createRequire(import.meta.url)
const Database = require('better-sqlite3') as new (file: string, options?: { readonly?: boolean }) => SqliteDatabase

const directory = mkdtempSync(join(tmpdir(), 'kqp-sqlite-worker-'))
const file = join(directory, 'design.sqlite')
const setup = new Database(file)
setup.exec('create table t (id integer primary key, v integer not null)')
setup.exec(
  'insert into t (id, v) with recursive s(g) as (select 1 union all select g + 1 from s where g < 200000) select g, (g * 7919) % 100000 from s',
)
setup.close()

const PAGE = 'select id, v from t where id > ? order by id limit 20'
const SLOW = 'select count(*) as n from t a, t b where a.v < b.v and b.id < 300'

const worker = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads')
   const Database = require(workerData.module)
   const db = new Database(workerData.file, { readonly: true })
   parentPort.on('message', ({ id, sql, bindings }) => {
     try { parentPort.postMessage({ id, rows: db.prepare(sql).all(...bindings) }) } catch (error) { parentPort.postMessage({ id, error: String(error) }) }
   })`,
  { eval: true, workerData: { file, module: require.resolve('better-sqlite3') } },
)
let nextId = 0
const pending = new Map<number, (rows: unknown) => void>()
worker.on('message', (message: { id: number; rows?: unknown }) => pending.get(message.id)?.(message.rows))
const inWorker = (sql: string, bindings: unknown[]): Promise<unknown> =>
  new Promise((resolve) => {
    const id = nextId++
    pending.set(id, resolve)
    worker.postMessage({ id, sql, bindings })
  })

const direct = new Database(file, { readonly: true })
const statement = direct.prepare(PAGE)
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const directTimes: number[] = []
const workerTimes: number[] = []
for (let round = 0; round < 2000; round++) {
  const key = (round * 97) % 190000
  let start = performance.now()
  statement.all(key)
  directTimes.push(performance.now() - start)
  start = performance.now()
  await inWorker(PAGE, [key])
  workerTimes.push(performance.now() - start)
}
console.log(
  `20-row page by key, 2,000 interleaved runs: direct ${(median(directTimes) * 1000).toFixed(1)} µs, in a worker ${(median(workerTimes) * 1000).toFixed(1)} µs (median)`,
)

let ticks = 0
const timer = setInterval(() => ticks++, 10)
const slowStart = performance.now()
void inWorker(SLOW, [])
await new Promise((resolve) => setTimeout(resolve, 500))
const answeredAt = performance.now() - slowStart
const terminateStart = performance.now()
await worker.terminate()
const terminated = performance.now() - terminateStart
clearInterval(timer)
console.log(
  `a statement of several seconds in the worker: the main thread ran ${ticks} 10 ms timers in the first ${answeredAt.toFixed(0)} ms; worker.terminate() resolved ${terminated.toFixed(0)} ms after it was called`,
)

const blockStart = performance.now()
const blocked = { ticks: 0 }
const blockTimer = setInterval(() => blocked.ticks++, 10)
direct.prepare(SLOW).get()
clearInterval(blockTimer)
console.log(
  `the same statement on the main thread: ${(performance.now() - blockStart).toFixed(0)} ms, ${blocked.ticks} timers ran meanwhile`,
)
direct.close()
rmSync(directory, { recursive: true, force: true })
