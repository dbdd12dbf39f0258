import knex, { type Knex } from 'knex'
import { performance } from 'node:perf_hooks'
import { mysqlConnection, mysqlUtcSession, pgTypes, pgUtcSession } from '../fixtures/driver-settings.ts'
import {
  applyQueryParams,
  paginate,
  parseQueryParams,
  QueryParamsError,
  type PaginateQueries,
  type RelationMap,
} from '../lib/index.ts'
import { clientQueryString } from './client-query-string.ts'
import { benchDatabaseName } from './data/bench-servers.ts'
import type { BenchResult, Measured } from './result.ts'
import { scaleRelationMap } from './scale/scale-relation-map.ts'

const FIGURE = '9. database time of the worst valid requests'
const POOL_FIGURE = "9. pool use: a cheap request's latency under 20 expensive ones"

/** The time a public endpoint gives a request, as the README recommends (the integrations' `timeout`). */
export const RECOMMENDED_TIMEOUT = 5000
/** The issue's client left after half a second. */
const CLIENT_LEAVES_AFTER = 500
/** The bench stops an unbounded request ("before") itself after this long, so a run ends. */
const BEFORE_CAP = 30_000
/** The tag of this figure's connections (PostgreSQL `application_name`). */
const APPLICATION = 'kqp_bench_time'

/**
 * Figure 6's map, plus what the issue's attacker used: an order through a `hasOne` (each post's first
 * comment), which the library writes as a subquery per base row.
 */
const MAP: RelationMap = {
  ...scaleRelationMap,
  posts: {
    ...scaleRelationMap.posts,
    relations: {
      ...scaleRelationMap.posts.relations,
      firstComment: { type: 'hasOne', table: 'comments', foreignKey: 'post_id' },
    },
  },
}

/** One slow request that the default options accept, on `posts` of the scale data set. */
interface WorstCase {
  name: string
  request: Record<string, unknown>
}

const wildcards = (length: number): string => '%o'.repeat(length / 2)

/** The slowest valid requests we could build under the default options (caps of parse and apply). */
export const WORST_CASES: readonly WorstCase[] = [
  {
    name: '100 or-ed `like` of 1,000-character wildcard patterns, with count',
    request: {
      wheres: Array.from({ length: 100 }, (_, index) => ({
        column: 'title',
        operator: 'like',
        value: `${wildcards(998)}${index}`,
        boolean: 'or',
      })),
      page: 1,
      limit: 15,
    },
  },
  {
    name: '50 orders through relations (author, author.team), page 1',
    request: {
      orders: Array.from({ length: 50 }, (_, index) => ({
        column: ['author.name', 'author.email', 'author.team.name', 'author.created_at', 'author.team.created_at'][
          index % 5
        ],
        direction: index % 2 === 0 ? 'asc' : 'desc',
      })),
      page: 1,
      limit: 15,
    },
  },
  {
    name: '48 orders through a hasOne (firstComment.body, .created_at), page 1',
    request: {
      orders: Array.from({ length: 48 }, (_, index) => ({
        column: index % 2 === 0 ? 'firstComment.body' : 'firstComment.created_at',
        direction: index % 4 < 2 ? 'asc' : 'desc',
      })),
      page: 1,
      limit: 10,
    },
  },
  {
    name: '10 relation filters `comments.body like` 1,000-character patterns, with count',
    request: {
      wheres: Array.from({ length: 10 }, (_, index) => ({
        column: 'comments.body',
        operator: 'like',
        value: `${wildcards(998)}${index}`,
        boolean: 'or',
      })),
      page: 1,
      limit: 15,
    },
  },
]

type ServerDialect = 'postgres' | 'mysql'

/** The README's recommended PostgreSQL setting for the API's role (JIT compilation ignores cancels). */
const RECOMMENDED_PG_SESSION = '-c jit=off'
/**
 * The caps these requests need: the defaults (`maxLikeWildcards` 10, `maxRelationOrders` 3) refuse every one
 * with a 400 before any SQL runs; the figure measures what the time bounds do for an operator who raised them.
 */
const RAISED_PARSE = { maxLikeWildcards: 1_000 }
const RAISED_APPLY = { maxRelationOrders: 50 }

/** What the default caps answer to `request`: the error code of the 400, or `accepted`. */
function underDefaults(db: Knex, request: Record<string, unknown>): string {
  try {
    const params = parseQueryParams(clientQueryString(request))
    applyQueryParams(db('posts'), params, MAP)
    return 'accepted'
  } catch (error) {
    return error instanceof QueryParamsError ? `400 ${error.code} (${error.param ?? ''})` : String(error)
  }
}

/** A pool of 10 on the scale data set whose statements the bench can see on the server. */
interface Probe {
  db: Knex
  /** Statements of {@link db} running on the server now. */
  busy(): Promise<number>
  /** Cancels whatever {@link db} still runs (the bench's own cap on an unbounded request). */
  stopAll(): Promise<void>
  close(): Promise<void>
}

function serverUrl(url: string, database: string): string {
  const target = new URL(url)
  target.pathname = `/${database}`
  return target.toString()
}

function probe(dialect: ServerDialect, url: string): Probe {
  const database = benchDatabaseName('scale')
  const target = serverUrl(url, database)
  if (dialect === 'postgres') {
    const db = knex({
      client: 'pg',
      connection: {
        connectionString: target,
        types: pgTypes,
        application_name: APPLICATION,
        options: RECOMMENDED_PG_SESSION,
      },
      pool: { min: 0, max: 10, afterCreate: pgUtcSession },
      acquireConnectionTimeout: 120_000,
    })
    const admin = knex({ client: 'pg', connection: target, pool: { min: 0, max: 1 } })
    const count = async (sql: string): Promise<number> =>
      Number(((await admin.raw(sql, [APPLICATION])) as { rows: Array<{ n: string }> }).rows[0]?.n ?? 0)
    return {
      db,
      busy: () => count("select count(*) as n from pg_stat_activity where application_name = ? and state = 'active'"),
      stopAll: async () =>
        void (await admin.raw(
          "select pg_cancel_backend(pid) from pg_stat_activity where application_name = ? and state = 'active'",
          [APPLICATION],
        )),
      close: async () => {
        await db.destroy()
        await admin.destroy()
      },
    }
  }
  const threads = new Set<number>()
  const db = knex({
    client: 'mysql2',
    connection: mysqlConnection(target),
    acquireConnectionTimeout: 120_000,
    pool: {
      min: 0,
      max: 10,
      afterCreate: (
        connection: { threadId: number; query: (sql: string, done: (error: Error | null) => void) => void },
        done: (error: Error | null, connection: unknown) => void,
      ) => {
        threads.add(connection.threadId)
        mysqlUtcSession(connection as never, done as never)
      },
    },
  })
  const admin = knex({ client: 'mysql2', connection: mysqlConnection(target), pool: { min: 0, max: 1 } })
  const running = async (): Promise<number[]> => {
    if (threads.size === 0) return []
    const [rows] = (await admin.raw(
      `select id from information_schema.processlist where command = 'Query' and id in (${[...threads].join(',')})`,
    )) as [Array<{ id: number }>]
    return rows.map((row) => Number(row.id))
  }
  return {
    db,
    busy: async () => (await running()).length,
    stopAll: async () => {
      for (const id of await running()) await admin.raw(`kill query ${id}`)
    },
    close: async () => {
      await db.destroy()
      await admin.destroy()
    },
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once one of the probe's statements runs on the server, or `settled` settles first. */
async function started(probe: Probe, settled: Promise<unknown>): Promise<void> {
  let done = false
  void settled.finally(() => (done = true))
  while (!done && (await probe.busy()) === 0) await sleep(10)
}

/** Milliseconds from `since` until none of the probe's statements runs (polled every 20 ms), or `cap` reached (then `undefined`). */
async function idleAfter(probe: Probe, since: number, cap: number): Promise<number | undefined> {
  for (;;) {
    if ((await probe.busy()) === 0) return performance.now() - since
    if (performance.now() - since > cap) return undefined
    await sleep(20)
  }
}

const single = (label: string, ms: number): Measured => ({ label, median: ms, p95: ms, samples: 1 })

interface Run {
  /** Database time, ms, from the start (or from the client leaving); `undefined` past the cap. */
  busy: number | undefined
  outcome: string
}

async function runCase(
  probe: Probe,
  request: Record<string, unknown>,
  options: { timeout?: number; abortAfter?: number; cap: number },
): Promise<Run> {
  const params = parseQueryParams(clientQueryString(request), RAISED_PARSE)
  const controller = new AbortController()
  const start = performance.now()
  const unbounded = options.abortAfter === undefined && options.timeout === undefined
  const settled = Promise.resolve()
    .then(() =>
      paginate(applyQueryParams(probe.db('posts'), params, MAP, RAISED_APPLY), params, {
        ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
        ...(options.abortAfter === undefined ? {} : { signal: controller.signal }),
      }),
    )
    .then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    )
  await started(probe, settled)
  let from = start
  if (options.abortAfter !== undefined) {
    await sleep(Math.max(0, options.abortAfter - (performance.now() - start)))
    from = performance.now()
    controller.abort()
  }
  const busy = await idleAfter(probe, from, options.cap)
  if (busy === undefined) await probe.stopAll()
  const outcome = await settled
  await idleAfter(probe, performance.now(), 60_000)
  return {
    busy,
    outcome:
      unbounded && busy === undefined ? `still running at ${options.cap / 1000} s (stopped by the bench)` : outcome,
  }
}

const seconds = (ms: number | undefined, cap: number): string =>
  ms === undefined ? `≥ ${(cap / 1000).toFixed(0)} s` : `${(ms / 1000).toFixed(2)} s`

/**
 * Figure 9: the slowest valid requests under the default options, each as `paginate` (page and count in
 * parallel, pool of 10) on the scale data set: database time before (no timeout, no signal: the library's
 * behaviour until 0.x, capped by the bench at 30 s) and with the README's settings (a 5 s timeout; a signal
 * aborted when the client leaves after 0.5 s). Database time = until no statement of the request is active on
 * the server (`pg_stat_activity`, `information_schema.processlist`), polled every 20 ms.
 */
export async function databaseTime(
  dialect: ServerDialect,
  url: string,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  const p = probe(dialect, url)
  try {
    for (const worst of WORST_CASES) {
      const before = await runCase(p, worst.request, { cap: BEFORE_CAP })
      const timed = await runCase(p, worst.request, { timeout: RECOMMENDED_TIMEOUT, cap: BEFORE_CAP })
      const left = await runCase(p, worst.request, {
        abortAfter: CLIENT_LEAVES_AFTER,
        timeout: RECOMMENDED_TIMEOUT,
        cap: BEFORE_CAP,
      })
      const beforeMs = before.busy ?? BEFORE_CAP
      const timedOk = timed.busy !== undefined && timed.busy <= RECOMMENDED_TIMEOUT + 500
      const leftOk = left.busy !== undefined && left.busy <= 500
      log(`  ${worst.name}: with the default caps: ${underDefaults(p.db, worst.request)}`)
      log(
        `  ${worst.name}: before ${seconds(before.busy, BEFORE_CAP)} (${before.outcome}); timeout ${RECOMMENDED_TIMEOUT / 1000} s → ${seconds(timed.busy, BEFORE_CAP)} (${timed.outcome}); client gone at 0.5 s → busy ${seconds(left.busy, BEFORE_CAP)} after (${left.outcome})`,
      )
      results.push({
        figure: FIGURE,
        name: `${worst.name}: timeout ${RECOMMENDED_TIMEOUT / 1000} s`,
        dialect,
        unit: 'ms',
        ours: single(`timeout ${RECOMMENDED_TIMEOUT} ms (${timed.outcome})`, timed.busy ?? BEFORE_CAP),
        baseline: single(`no timeout (${before.outcome})`, beforeMs),
        ratio: (timed.busy ?? BEFORE_CAP) / beforeMs,
        note: `database time ${seconds(timed.busy, BEFORE_CAP)} against ${seconds(before.busy, BEFORE_CAP)} before; target ≤ timeout + 0.5 s: ${timedOk ? 'met' : 'MISSED'}; with the default caps: ${underDefaults(p.db, worst.request)}`,
      })
      results.push({
        figure: FIGURE,
        name: `${worst.name}: client leaves at 0.5 s`,
        dialect,
        unit: 'ms',
        ours: single(`signal aborted at 0.5 s (${left.outcome})`, left.busy ?? BEFORE_CAP),
        baseline: single('no signal: runs on', Math.max(0, beforeMs - CLIENT_LEAVES_AFTER)),
        ratio: (left.busy ?? BEFORE_CAP) / Math.max(1, beforeMs - CLIENT_LEAVES_AFTER),
        note: `busy ${seconds(left.busy, BEFORE_CAP)} after the client left, against ${seconds(Math.max(0, beforeMs - CLIENT_LEAVES_AFTER), BEFORE_CAP)} before; target ≤ 0.5 s: ${leftOk ? 'met' : 'MISSED'}`,
      })
    }
  } finally {
    await p.close()
  }
  return results
}

const EXPENSIVE: Record<string, unknown> = WORST_CASES[0]?.request ?? {}
const CHEAP: Record<string, unknown> = {
  wheres: [{ column: 'id', operator: '=', value: 1, boolean: 'and' }],
  page: 1,
  limit: 15,
}
const CONCURRENT = 20
const POOL_TIMEOUT = 1000
const POOL_CAP = 30_000

async function cheapLatency(
  p: Probe,
  queries: PaginateQueries,
  timeout: number | undefined,
): Promise<{ ms: number; outcome: string }> {
  // Ends the expensive requests once the cheap one is measured (their queued statements would run for minutes).
  const cleanup = new AbortController()
  const run = (request: Record<string, unknown>): Promise<string> => {
    const params = parseQueryParams(clientQueryString(request), RAISED_PARSE)
    return paginate(applyQueryParams(p.db('posts'), params, MAP, RAISED_APPLY), params, {
      queries,
      signal: cleanup.signal,
      ...(timeout === undefined ? {} : { timeout }),
    }).then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.name : String(error)),
    )
  }
  const expensive = Array.from({ length: CONCURRENT }, () => run(EXPENSIVE))
  await started(p, Promise.all(expensive))
  await sleep(300)
  const start = performance.now()
  const cheap = await Promise.race([run(CHEAP), sleep(POOL_CAP).then(() => `no answer in ${POOL_CAP / 1000} s`)])
  const ms = performance.now() - start
  cleanup.abort()
  await p.stopAll()
  await Promise.allSettled(expensive)
  await idleAfter(p, performance.now(), 60_000)
  return { ms, outcome: cheap }
}

/**
 * Figure 9 (pool use): a cheap request (`id = 1`, page and count) sent while 20 copies of the most expensive
 * request run on a pool of 10, with each `paginate` `queries` choice, without and with a 1 s timeout; against
 * the same cheap request on an idle pool.
 */
export async function poolUse(
  dialect: ServerDialect,
  url: string,
  log: (line: string) => void,
): Promise<BenchResult[]> {
  const results: BenchResult[] = []
  const p = probe(dialect, url)
  try {
    const idle: number[] = []
    for (let index = 0; index < 5; index += 1) {
      const params = parseQueryParams(clientQueryString(CHEAP))
      const start = performance.now()
      await paginate(applyQueryParams(p.db('posts'), params, MAP), params)
      idle.push(performance.now() - start)
    }
    const idleMs = idle.sort((a, b) => a - b)[2] ?? 0
    for (const timeout of [undefined, POOL_TIMEOUT]) {
      for (const queries of ['parallel', 'sequential', 'transaction'] as const) {
        const { ms, outcome } = await cheapLatency(p, queries, timeout)
        const label = `${queries}${timeout === undefined ? ', no timeout' : `, timeout ${timeout / 1000} s`}`
        log(
          `  cheap request under ${CONCURRENT} expensive (${label}): ${(ms / 1000).toFixed(2)} s (${outcome}); idle ${idleMs.toFixed(1)} ms`,
        )
        results.push({
          figure: POOL_FIGURE,
          name: `queries: ${label}`,
          dialect,
          unit: 'ms',
          ours: single(`cheap request under load (${outcome})`, ms),
          baseline: single('cheap request, idle pool', idleMs),
          ratio: ms / idleMs,
        })
      }
    }
  } finally {
    await p.close()
  }
  return results
}
