import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { httpRequest } from './baselines/http-request.ts'
import { clientQueryString } from './client-query-string.ts'
import { result, type BenchResult } from './result.ts'

const FIGURE = '5. HTTP throughput'
const SERVER_SCRIPT = fileURLToPath(new URL('./http-server.ts', import.meta.url))

/** How hard and how long to load each server. */
export interface LoadPlan {
  connections: number
  /** Seconds of warm-up load per server before measuring. */
  warmupSeconds: number
  /** Seconds per measured round; each server gets `rounds` rounds, alternating A B B A. */
  roundSeconds: number
  rounds: number
}

interface Server {
  child: ChildProcess
  url: string
}

type ServerKind = 'demo' | 'library' | 'hand'

async function startServer(kind: ServerKind, dialect: 'sqlite' | 'postgres'): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT, kind, dialect], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${String(code)}) before listening`)))
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port))
  })
  return { child, url: `http://127.0.0.1:${port}` }
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()))
  server.child.kill('SIGTERM')
  await exited
}

async function body(url: string): Promise<string> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}: ${await response.text()}`)
  return response.text()
}

interface Load {
  requestsPerSecond: number
  p99: number
  /** CPU time the server process spent per request (user + system, from /proc; NaN where unavailable). */
  cpuPerRequestMs: number
}

/** CPU time (ms) a process has used so far, from /proc/<pid>/stat (Linux); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields =
      readFileSync(`/proc/${String(pid)}/stat`, 'utf8')
        .split(') ')[1]
        ?.split(' ') ?? []
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return Number.NaN
  }
}

async function load(server: Server, path: string, connections: number, seconds: number): Promise<Load> {
  const url = server.url + path
  const before = processCpuMs(server.child.pid)
  const run = await autocannon({ url, connections, duration: seconds, pipelining: 1, timeout: 30 })
  const after = processCpuMs(server.child.pid)
  if (run.errors > 0 || run.timeouts > 0 || run.non2xx > 0) {
    throw new Error(
      `autocannon ${url}: ${run.errors} errors, ${run.timeouts} timeouts, ${run.non2xx} non-2xx responses`,
    )
  }
  return {
    requestsPerSecond: run.requests.average,
    p99: run.latency.p99,
    cpuPerRequestMs: (after - before) / run.requests.total,
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2
}

const LABELS: Record<ServerKind, string> = {
  demo: 'demo server (queryParamsFromRequest + applyQueryParams + paginate)',
  library: 'the library in a minimal handler (no CORS, content types, error mapping)',
  hand: 'minimal hand-written Fastify handler, same queries',
}

/**
 * Figure 5: requests per second and p99 latency of the demo server (`GET /users` with the typical
 * request, through `queryParamsFromRequest`, `applyQueryParams` and `paginate`) against a minimal
 * hand-written Fastify handler running the same queries — target ≥ 0.9 — and, to tell the library's
 * cost from the demo app's, the library in a handler as minimal as the hand-written one. All on the
 * eager data set, each server in its own process, loaded by autocannon on loopback in turns.
 */
export async function httpThroughput(
  dialect: 'sqlite' | 'postgres',
  plan: LoadPlan,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const path = `/users?${clientQueryString(httpRequest)}`
  const kinds: ServerKind[] = ['demo', 'library', 'hand']
  const servers = new Map<ServerKind, Server>()
  try {
    for (const kind of kinds) servers.set(kind, await startServer(kind, dialect))
    const server = (kind: ServerKind): Server => {
      const found = servers.get(kind)
      if (found === undefined) throw new Error(`no ${kind} server`)
      return found
    }
    const bodies = await Promise.all(kinds.map((kind) => body(server(kind).url + path)))
    for (const [index, kind] of kinds.entries()) {
      if (bodies[index] !== bodies[2]) {
        throw new Error(
          `HTTP figure: the ${kind} server and the hand-written handler answer differently\n  ${kind}: ${(bodies[index] ?? '').slice(0, 300)}\n  hand: ${(bodies[2] ?? '').slice(0, 300)}`,
        )
      }
    }
    const users = (JSON.parse(bodies[2] ?? '{"data":[]}') as { data: unknown[] }).data.length
    for (const kind of kinds) await load(server(kind), path, plan.connections, plan.warmupSeconds)
    const runs = new Map<ServerKind, Load[]>(kinds.map((kind) => [kind, []]))
    for (let round = 0; round < plan.rounds; round++) {
      for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
        runs.get(kind)?.push(await load(server(kind), path, plan.connections, plan.roundSeconds))
      }
    }
    const summary = (kind: ServerKind): { rps: number; p99: number; cpu: number; samples: number } => {
      const list = runs.get(kind) ?? []
      return {
        rps: median(list.map((run) => run.requestsPerSecond)),
        p99: median(list.map((run) => run.p99)),
        cpu: median(list.map((run) => run.cpuPerRequestMs)),
        samples: list.length,
      }
    }
    const hand = summary('hand')
    const row = (kind: ServerKind, withTarget: boolean): BenchResult => {
      const ours = summary(kind)
      return result({
        figure: FIGURE,
        name: `GET /users, typical request (page of ${users} users with posts and team)`,
        dialect,
        unit: 'req/s',
        ours: { label: LABELS[kind], median: ours.rps, p95: ours.p99, samples: ours.samples },
        baseline: { label: LABELS.hand, median: hand.rps, p95: hand.p99, samples: hand.samples },
        ratio: ours.rps / hand.rps,
        ...(withTarget ? { target: { op: '>=', value: 0.9 } as const } : {}),
        note: `${plan.connections} connections, ${plan.rounds} × ${plan.roundSeconds} s per server; median req/s and p99 latency (ms, in the p95 column) over the rounds; server CPU per request ${(ours.cpu * 1000).toFixed(0)} µs vs ${(hand.cpu * 1000).toFixed(0)} µs hand-written (×${(ours.cpu / hand.cpu).toFixed(3)})`,
      })
    }
    const results = [row('demo', true), row('library', false)]
    log(
      `  ${dialect}: ${kinds.map((kind) => `${kind} ${summary(kind).rps.toFixed(0)} req/s (p99 ${summary(kind).p99} ms, ${(summary(kind).cpu * 1000).toFixed(0)} µs CPU/request)`).join(', ')}: demo ×${(results[0]?.ratio ?? 0).toFixed(3)}, library ×${(results[1]?.ratio ?? 0).toFixed(3)}`,
    )
    return results
  } finally {
    for (const server of servers.values()) await stopServer(server)
  }
}
