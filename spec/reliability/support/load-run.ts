import autocannonModule from 'autocannon'
import type { Knex } from 'knex'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildApp } from '../../../demo/app.ts'
import type { LoadRequest } from './load-requests.ts'
import { waitForIdlePool } from './wait-for-idle-pool.ts'

/** The part of autocannon's API used here (its package ships no types). */
type Cannon = (options: {
  url: string
  connections: number
  duration?: number
  amount?: number
  timeout: number
  requests: Array<{ method: 'GET'; path: string; onResponse: (status: number, body: string) => void }>
}) => Promise<{
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; max: number }
  errors: number
  timeouts: number
  statusCodeStats: Record<string, { count: number }>
}>

const autocannon = autocannonModule as unknown as Cannon

/** What one load run measured. */
export interface LoadReport {
  total: number
  requestsPerSecond: number
  p50: number
  p99: number
  maxLatency: number
  errors: number
  timeouts: number
  statuses: Record<string, number>
  serverErrors: number
  /** Responses whose status or body differed from what the request must get. */
  wrong: string[]
  heapBeforeMb: number
  heapAfterMb: number
}

/** Options of {@link runLoad}. */
export interface LoadOptions {
  connections: number
  /** How long the load runs, unless `amount` is given. */
  seconds: number
  /** A fixed number of requests instead of a duration: the same work however busy the machine is. */
  amount?: number
}

const collectGarbage = (() => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  return (): void => {
    for (let i = 0; i < 3; i++) gc()
  }
})()

const heapMb = (): number => {
  collectGarbage()
  return process.memoryUsage().heapUsed / 2 ** 20
}

const idsOf = (body: string): number[] => {
  const parsed = JSON.parse(body) as { data: Array<{ id: number }> }
  return parsed.data.map((row) => Number(row.id))
}

/**
 * Serves the demo app on `knex` on a loopback port and hammers it with autocannon, cycling through
 * `requests` on every connection. Before the load, each request is made once alone: its status must be
 * the expected one, its ids (when given) those of the fixtures, and that body is the reference every
 * response under load must equal. A short warm-up precedes the heap baseline.
 */
export async function runLoad(knex: Knex, requests: readonly LoadRequest[], options: LoadOptions): Promise<LoadReport> {
  const app = buildApp({ db: knex })
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('the demo app has no TCP address')
    const url = `http://127.0.0.1:${address.port}`
    const reference = new Map<string, string>()
    for (const request of requests) {
      const response = await fetch(`${url}${request.path}`)
      const body = await response.text()
      if (response.status !== request.status)
        throw new Error(
          `${request.path}: status ${response.status} before the load, expected ${request.status}: ${body.slice(0, 300)}`,
        )
      if (request.ids !== undefined && JSON.stringify(idsOf(body)) !== JSON.stringify(request.ids)) {
        throw new Error(`${request.path}: ids ${JSON.stringify(idsOf(body))}, expected ${JSON.stringify(request.ids)}`)
      }
      reference.set(request.path, body)
    }
    const wrong: string[] = []
    const mix = requests.map((request) => ({
      method: 'GET' as const,
      path: request.path,
      onResponse: (status: number, body: string): void => {
        if (wrong.length < 20 && (status !== request.status || body !== reference.get(request.path)))
          wrong.push(`${request.path}: ${status} ${body.slice(0, 200)}`)
      },
    }))
    await autocannon({ url, connections: options.connections, duration: 1, timeout: 10, requests: mix })
    const heapBeforeMb = heapMb()
    const length = options.amount === undefined ? { duration: options.seconds } : { amount: options.amount }
    const result = await autocannon({ url, connections: options.connections, ...length, timeout: 10, requests: mix })
    if (!(await waitForIdlePool(knex)))
      throw new Error('requests were still running on the database 10 s after the load stopped')
    const heapAfterMb = heapMb()
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats).map(([code, stats]) => [code, Number(stats.count)]),
    )
    return {
      total: result.requests.total,
      requestsPerSecond: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      maxLatency: result.latency.max,
      errors: result.errors,
      timeouts: result.timeouts,
      statuses,
      serverErrors: Object.entries(statuses)
        .filter(([code]) => code.startsWith('5'))
        .reduce((sum, [, count]) => sum + count, 0),
      wrong,
      heapBeforeMb,
      heapAfterMb,
    }
  } finally {
    await app.close()
  }
}

/** One line for the output: `8123 req/s, p50 2 ms, p99 9 ms, 40615 requests, statuses {...}, heap 41.2 → 42.0 MB`. */
export function describeLoad(report: LoadReport): string {
  return (
    `${Math.round(report.requestsPerSecond)} req/s, p50 ${report.p50} ms, p99 ${report.p99} ms, max ${report.maxLatency} ms, ` +
    `${report.total} requests, statuses ${JSON.stringify(report.statuses)}, errors ${report.errors}, timeouts ${report.timeouts}, ` +
    `heap ${report.heapBeforeMb.toFixed(1)} → ${report.heapAfterMb.toFixed(1)} MB`
  )
}
