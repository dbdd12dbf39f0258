/**
 * One measurement of figure 8, in a process of its own (`node --expose-gc --max-old-space-size=…`), so that
 * its peak RSS is its own and a crash ends only it. argv: the library folder to import (this checkout's
 * `lib`, or the code before issue 18), the request name, the database (`sqlite <file>`, `postgres <url>`,
 * `mysql <url>`, or `none`). Prints one JSON line: outcome, time, peak RSS and heap, body size.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import knex, { type Knex } from 'knex'
import { serverKnex } from '../data/bench-servers.ts'
import { WORST_CASE_REQUESTS, worstCaseMap } from './worst-case-requests.ts'

interface Library {
  parseQueryParams(input: string): unknown
  applyQueryParams(query: Knex.QueryBuilder, params: unknown, map: unknown): Knex.QueryBuilder
}

const [libDir, name, dialect, connection, beforeFlag] = process.argv.slice(2)
const request = WORST_CASE_REQUESTS.find((candidate) => candidate.name === name)
if (libDir === undefined || request === undefined || dialect === undefined)
  throw new Error('usage: worst-case-child <lib> <request> <dialect> [connection] [before]')
const before = beforeFlag === 'before'
const lib = (await import(pathToFileURL(`${libDir}/index.ts`).href)) as Library

let peakHeap = 0
const sample = (): void => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
}
const sampler = setInterval(sample, 5)

function open(): Knex | undefined {
  if (dialect === 'sqlite')
    return knex({
      client: 'better-sqlite3',
      connection: { filename: connection ?? '', options: { readonly: true } },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    })
  if (dialect === 'postgres' || dialect === 'mysql') return serverKnex(dialect, connection ?? '', 'kqp_bench_scale', 10)
  return undefined
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.()
const db = open()
const result: Record<string, unknown> = { request: name, before }
const started = performance.now()
try {
  if (request.bodies !== undefined) {
    gc()
    const baseline = process.memoryUsage().heapUsed
    const filler = 'v'.repeat(1 << 20)
    for (let i = 0; i < request.bodies; i++) {
      // A fresh 1 MB body each time, starting with an unknown 13-character key, then a list entry at a new index.
      const body = `${`u${String(i).padStart(12, '0')}`}=1&with[${100_000 + i}]=x&z=${filler}`
      try {
        lib.parseQueryParams(body)
      } catch {
        // A 400 is a fine answer; what matters is what stays in memory.
      }
    }
    gc()
    gc()
    result.retainedMB = (process.memoryUsage().heapUsed - baseline) / 2 ** 20
    result.outcome = 'ok'
  } else {
    if (db === undefined) throw new Error(`no database for ${dialect}`)
    const map = worstCaseMap(before)
    const query = before ? (request.queryBefore ?? request.query) : request.query
    const once = async (): Promise<number> => {
      const rows: unknown = await lib.applyQueryParams(db(request.table ?? ''), lib.parseQueryParams(query ?? ''), map)
      sample()
      return JSON.stringify(rows).length
    }
    const bodies = await Promise.all(Array.from({ length: request.concurrency ?? 1 }, once))
    result.outcome = 'ok'
    result.bodyMB = bodies.reduce((sum, size) => sum + size, 0) / bodies.length / 2 ** 20
  }
} catch (error) {
  const status = (error as { status?: unknown }).status
  const code = (error as { code?: unknown }).code
  result.outcome =
    status === 400 ? `400 ${String(code)}` : `${(error as Error).name}: ${(error as Error).message.slice(0, 80)}`
}
result.ms = performance.now() - started
clearInterval(sampler)
sample()
result.peakHeapMB = peakHeap / 2 ** 20
result.peakRssMB = process.resourceUsage().maxRSS / 1024
await db?.destroy()
console.log(JSON.stringify(result))
