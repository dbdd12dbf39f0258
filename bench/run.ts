import type { Knex } from 'knex'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildingCost } from './building-cost.ts'
import { EAGER_DATASET, LARGE_DATASET } from './data/dataset-spec.ts'
import { benchServers, redactUrl, type BenchDialect } from './data/bench-servers.ts'
import { sessionPool } from './data/session-pool.ts'
import {
  CACHE_DIRECTORY,
  demoRecipe,
  ensureDataset,
  type BenchDatabase,
  type DatasetRecipe,
} from './data/ensure-dataset.ts'
import { commonQueriesAtScale } from './common-queries-at-scale.ts'
import { aggregatesAtScale } from './aggregates-at-scale.ts'
import { cursorPages } from './cursor-pages.ts'
import { cursorRecipe } from './cursor/cursor-dataset.ts'
import { scaleRecipe } from './scale/scale-dataset.ts'
import { skewedCases } from './skewed/skewed-cases.ts'
import { skewedRecipe } from './skewed/skewed-dataset.ts'
import { SEARCH_CASES } from './search/search-cases.ts'
import { searchRecipe } from './search/search-dataset.ts'
import { worstRecipe } from './worst/worst-dataset.ts'
import { aggregateIndexCases, jitCost, randomRequests } from './worst/worst-request.ts'
import { eagerLoading } from './eager-loading.ts'
import { guardCost } from './guard-cost.ts'
import { databaseTime, poolUse } from './database-time.ts'
import { isoDatetimeRecipe, normalizeCost } from './normalize-cost.ts'
import { httpThroughput } from './http-throughput.ts'
import { machine } from './machine.ts'
import { worstCaseMemory } from './memory/worst-case-memory.ts'
import { pagination } from './pagination.ts'
import { relationFilters, type ExplainRecord } from './relation-filters.ts'
import { relationOrders } from './relation-orders.ts'
import { mergeReports, readReport, terminalTable, writeReport, type BenchReport } from './report.ts'
import type { BenchResult } from './result.ts'

/**
 * `npm run bench` (`tsx bench/run.ts`): every figure of BENCHMARKS.md, each against its baseline in this
 * same process, on SQLite (cached files under bench/.cache/), on PostgreSQL when `BENCH_POSTGRES_URL` is set
 * and on MariaDB/MySQL when `BENCH_MYSQL_URL` is set (figures 3, 4, 6, 8, 10 and 13). On a server the bench creates its
 * own databases, `kqp_bench_<data set>`, and never touches any other. Prints a table, writes
 * bench/results.json and the generated part of BENCHMARKS.md.
 *
 * Options: `--only=3,6` runs some figures and replaces only their rows in bench/results.json and
 * BENCHMARKS.md; `--on=postgres,mysql` limits the databases (for a look, it writes nothing); `--quick` shortens every budget (a smoke test, not a result: it writes nothing);
 * `--worst-part=random` runs only part 2 of figure 16 (the seeded random requests; it writes nothing), e.g.
 * `--only=16 --on=postgres,mysql --worst-part=random` for the servers alone.
 */
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const onlyArg = args.find((arg) => arg.startsWith('--only='))
const only = onlyArg === undefined ? undefined : new Set(onlyArg.slice('--only='.length).split(',').map(Number))
const wants = (figure: number): boolean => only === undefined || only.has(figure)
/** `--worst-part=random`: figure 16 runs only its part 2 (the seeded random requests), e.g. with `--on=postgres,mysql`. */
const worstPart = args.find((arg) => arg.startsWith('--worst-part='))?.slice('--worst-part='.length)
if (worstPart !== undefined && worstPart !== 'random')
  throw new Error(`--worst-part=${worstPart}: only 'random' is known`)

const servers = benchServers(process.env)
/** Figures 2 and 5 (the demo's eager data set, HTTP). */
const onArg = args.find((arg) => arg.startsWith('--on='))
const on = onArg === undefined ? undefined : new Set(onArg.slice('--on='.length).split(','))
const runsOn = (dialect: BenchDialect): boolean => on === undefined || on.has(dialect)
const dialects = (servers.postgres === undefined ? (['sqlite'] as const) : (['sqlite', 'postgres'] as const)).filter(
  runsOn,
)
/** Figures 3, 4, 6, 8 and 13 (the large data sets), on every database named. */
const allDialects: BenchDialect[] = [...dialects, ...(servers.mysql === undefined ? [] : ['mysql' as const])].filter(
  runsOn,
)

const scale = quick ? 0.15 : 1
const budgets = {
  building: { timeMs: 2000 * scale, warmupMs: 300 * scale, clock: 'cpu' as const },
  eager: { timeMs: 4000 * scale, warmupMs: 500 * scale, minSamples: 5 },
  naive: { timeMs: 0, warmupMs: 0, minSamples: quick ? 1 : 3 },
  filters: { timeMs: 8000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 9 },
  joins: { timeMs: 0, warmupMs: 0, minSamples: quick ? 1 : 3 },
  pagination: { timeMs: 3000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 5 },
  scale: { timeMs: 3000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 7 },
  skewed: { timeMs: 1500 * scale, warmupMs: 200 * scale, minSamples: quick ? 2 : 5 },
  guards: { timeMs: 4000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 9 },
  relationOrders: { timeMs: 0, warmupMs: 0, sampleMs: 0, minSamples: quick ? 1 : 5 },
  cursor: { timeMs: 2000 * scale, warmupMs: 200 * scale, minSamples: quick ? 2 : 7 },
}
const load = { connections: 10, warmupSeconds: quick ? 1 : 3, roundSeconds: quick ? 1 : 4, rounds: quick ? 2 : 5 }

const log = (line: string): void => console.log(line)
const started = performance.now()
const results: BenchResult[] = []
const explains: ExplainRecord[] = []
const skipped: string[] = []
const failed: string[] = []
const databases = new Set<string>()
const host = machine()

async function figure(title: string, run: () => Promise<void>): Promise<void> {
  log(title)
  try {
    await run()
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error)
    failed.push(`${title}: ${message.split('\n')[0] ?? message}`)
    console.error(`  FAILED: ${message}`)
  }
}

async function withDataset(
  dialect: BenchDialect,
  recipe: DatasetRecipe,
  use: (database: BenchDatabase) => Promise<void>,
): Promise<void> {
  const database = await ensureDataset(dialect, recipe, servers, log)
  databases.add(database.label)
  try {
    await use(database)
  } finally {
    await database.knex.destroy()
  }
}

log(
  `knex-query-params benchmarks — ${host.cpus} CPUs, ${host.memoryGiB} GiB, Node.js ${host.node}, load average ${host.loadAverage.map((value) => value.toFixed(2)).join(' ')}${quick ? ' — QUICK (smoke test, nothing written)' : ''}`,
)
if (servers.postgres === undefined) {
  const reason =
    'PostgreSQL: BENCH_POSTGRES_URL is not set, so every PostgreSQL figure is skipped (figure 1 still compiles PostgreSQL SQL, which needs no server)'
  skipped.push(reason)
  log(`  ${reason}`)
}
if (servers.mysql === undefined && (wants(3) || wants(4) || wants(6) || wants(8) || wants(10) || wants(13))) {
  const reason = 'MariaDB/MySQL: BENCH_MYSQL_URL is not set, so figures 3, 4, 6, 8, 10 and 13 skip it'
  skipped.push(reason)
  log(`  ${reason}`)
}

if (wants(1)) {
  await figure('1. building cost (raw string → SQL; no database needed)', async () => {
    results.push(...(await buildingCost(budgets.building, log)))
  })
}
if (wants(2)) {
  for (const dialect of dialects) {
    await figure(`2. eager loading (${dialect})`, () =>
      withDataset(dialect, demoRecipe(EAGER_DATASET), async (database) => {
        results.push(...(await eagerLoading(database, EAGER_DATASET, budgets.eager, budgets.naive, log)))
      }),
    )
  }
}
if (wants(3) || wants(4)) {
  for (const dialect of allDialects) {
    await withDataset(dialect, demoRecipe(LARGE_DATASET), async (database) => {
      if (wants(3)) {
        await figure(`3. relation filters (${dialect})`, async () => {
          const filtered = await relationFilters(database, budgets.filters, budgets.joins, log)
          results.push(...filtered.results)
          explains.push(...filtered.explains)
        })
      }
      if (wants(4)) {
        await figure(`4. pagination with count (${dialect})`, async () => {
          results.push(...(await pagination(database, budgets.pagination, log)))
        })
      }
    }).catch((error: unknown) => {
      failed.push(`large data set on ${dialect}: ${String(error)}`)
      console.error(error)
    })
  }
}
if (wants(5)) {
  for (const dialect of dialects) {
    await figure(`5. HTTP throughput (${dialect})`, () =>
      withDataset(dialect, demoRecipe(EAGER_DATASET), async () => {
        results.push(...(await httpThroughput(dialect, load, log)))
      }),
    )
  }
}

if (wants(6)) {
  for (const dialect of allDialects) {
    await figure(`6. common queries at scale (${dialect})`, () =>
      withDataset(dialect, scaleRecipe(), async (database) => {
        const scaled = await commonQueriesAtScale(database, budgets.scale, log)
        results.push(...scaled.results)
        explains.push(...scaled.explains)
      }),
    )
  }
}

if (wants(13)) {
  for (const dialect of allDialects) {
    await figure(`13. relation filters on skewed values (${dialect})`, () =>
      withDataset(dialect, skewedRecipe(), async (database) => {
        const skewed = await commonQueriesAtScale(database, budgets.skewed, log, {
          title: '13. relation filters on skewed values',
          cases: skewedCases(),
          wholeRequest: false,
          formTimeoutMs: 3000,
        })
        results.push(...skewed.results)
        explains.push(...skewed.explains)
      }),
    )
  }
}

if (wants(14)) {
  for (const dialect of allDialects) {
    await figure(`14. the search box (${dialect})`, () =>
      withDataset(dialect, searchRecipe(), async (database) => {
        const searched = await commonQueriesAtScale(database, budgets.scale, log, {
          title: '14. the search box',
          cases: SEARCH_CASES,
          wholeRequest: false,
          formTimeoutMs: 10_000,
        })
        results.push(...searched.results)
        explains.push(...searched.explains)
      }),
    )
  }
}

if (wants(7)) {
  for (const dialect of dialects) {
    await figure(`7. guard cost (${dialect})`, () =>
      withDataset(dialect, demoRecipe(EAGER_DATASET), async (database) => {
        results.push(...(await guardCost(database, budgets.guards, log)))
      }),
    )
  }
}

if (wants(8)) {
  await figure('8. worst-case memory (parsing, no database)', async () => {
    results.push(...(await worstCaseMemory('none', '', log)))
  })
  for (const dialect of allDialects) {
    const connection =
      dialect === 'sqlite'
        ? `${CACHE_DIRECTORY}scale.sqlite`
        : ((dialect === 'postgres' ? servers.postgres : servers.mysql) ?? '')
    await figure(`8. worst-case memory (${dialect})`, () =>
      withDataset(dialect, scaleRecipe(), async () => {
        results.push(...(await worstCaseMemory(dialect, connection, log)))
      }),
    )
  }
}

if (wants(9)) {
  if (allDialects.includes('sqlite')) {
    const reason =
      'figure 9 on SQLite: a statement cannot be interrupted from JavaScript, so the worst requests would block the bench for minutes (see the README, "Database time")'
    skipped.push(reason)
    log(`  ${reason}`)
  }
  for (const dialect of allDialects) {
    if (dialect === 'sqlite') continue
    const url = servers[dialect]
    if (url === undefined) continue
    await figure(`9. database time of the worst valid requests (${dialect})`, async () => {
      databases.add(`${dialect} ${redactUrl(url)} kqp_bench_scale (read only)`)
      results.push(...(await databaseTime(dialect, url, log)))
      results.push(...(await poolUse(dialect, url, log)))
    })
  }
}

if (wants(10)) {
  for (const dialect of allDialects) {
    await figure(`10. orders through a hasOne at scale (${dialect})`, () =>
      withDataset(dialect, scaleRecipe(), async (database) => {
        results.push(...(await relationOrders(database, budgets.relationOrders, log)))
      }),
    )
  }
}

if (wants(11)) {
  for (const dialect of dialects) {
    await figure(`11. JSON values (${dialect})`, () =>
      withDataset(dialect, demoRecipe(EAGER_DATASET), async (database) => {
        results.push(...(await normalizeCost(database, EAGER_DATASET, budgets.eager, log)))
      }),
    )
  }
  if (runsOn('sqlite')) {
    await figure('11. JSON values (sqlite, date-times stored as ISO text)', () =>
      withDataset('sqlite', isoDatetimeRecipe(EAGER_DATASET), async (database) => {
        results.push(...(await normalizeCost(database, EAGER_DATASET, budgets.eager, log, 'iso')))
      }),
    )
  }
}

if (wants(12)) {
  for (const dialect of allDialects) {
    await figure(`12. relation counts at scale (${dialect})`, () =>
      withDataset(dialect, scaleRecipe(), async (database) => {
        results.push(...(await aggregatesAtScale(database, budgets.scale, log)))
      }),
    )
  }
}

if (wants(15)) {
  for (const dialect of allDialects) {
    await figure(`15. keyset pages at depth (${dialect})`, () =>
      withDataset(dialect, cursorRecipe(), async (database) => {
        results.push(...(await cursorPages(database, budgets.cursor, budgets.relationOrders, log)))
      }),
    )
  }
}

if (wants(16)) {
  for (const dialect of allDialects) {
    await figure(`16. the worst valid request (${dialect})`, () =>
      withDataset(dialect, worstRecipe(), async (database) => {
        if (worstPart === undefined) results.push(...(await aggregateIndexCases(database, budgets.scale, log)))
        results.push(...(await randomRequests(database, quick ? 20 : 150, log)))
        if (dialect !== 'postgres' || worstPart !== undefined) return
        const session = (jit: 'on' | 'off'): Knex => sessionPool(database.knex.client.config, `set jit = ${jit}`)
        const [on, off] = [session('on'), session('off')]
        try {
          results.push(...(await jitCost(database, on, off, budgets.scale, log)))
        } finally {
          await Promise.all([on.destroy(), off.destroy()])
        }
      }),
    )
  }
}

const serverVariables = [
  servers.postgres === undefined ? '' : `BENCH_POSTGRES_URL=${redactUrl(servers.postgres)} `,
  servers.mysql === undefined ? '' : `BENCH_MYSQL_URL=${redactUrl(servers.mysql)} `,
].join('')
const report: BenchReport = {
  date: new Date().toISOString(),
  command: `${serverVariables}npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`,
  machine: host,
  databases: [...databases],
  skipped,
  failed,
  results,
  explains,
  durationSeconds: (performance.now() - started) / 1000,
}
log('')
log(terminalTable(report))
log('')
for (const line of [...skipped.map((text) => `skipped: ${text}`), ...failed.map((text) => `FAILED: ${text}`)]) log(line)
const missed = results.filter((row) => row.met === false)
log(
  `${results.filter((row) => row.met === true).length} targets met, ${missed.length} missed; ${report.durationSeconds.toFixed(0)} s`,
)
const resultsFile = fileURLToPath(new URL('./results.json', import.meta.url))
if (quick || on !== undefined || worstPart !== undefined) {
  log('(--quick, --on or --worst-part: bench/results.json and BENCHMARKS.md left as they were)')
} else {
  const previous = only === undefined ? undefined : readReport(resultsFile)
  writeReport(
    previous === undefined || only === undefined ? report : mergeReports(previous, report, only),
    resultsFile,
    fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url)),
  )
  log(
    `wrote bench/results.json and BENCHMARKS.md${only === undefined ? '' : ` (figures ${[...only].join(', ')} replaced, the others kept)`}`,
  )
}
if (failed.length > 0) process.exitCode = 1
