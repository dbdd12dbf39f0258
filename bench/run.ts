import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { buildingCost } from './building-cost.ts'
import { EAGER_DATASET, LARGE_DATASET } from './data/dataset-spec.ts'
import { ensureDataset, type BenchDatabase } from './data/ensure-dataset.ts'
import { eagerLoading } from './eager-loading.ts'
import { guardCost } from './guard-cost.ts'
import { httpThroughput } from './http-throughput.ts'
import { machine } from './machine.ts'
import { pagination } from './pagination.ts'
import { relationFilters, type ExplainRecord } from './relation-filters.ts'
import { terminalTable, writeReport, type BenchReport } from './report.ts'
import type { BenchResult } from './result.ts'

/**
 * `npm run bench` (`tsx bench/run.ts`): every figure of BENCHMARKS.md, each against its baseline in this
 * same process, on SQLite (a cached file under bench/.cache/) and on PostgreSQL when `DATABASE_URL` is a
 * postgres:// URL (own databases `bench_eager` and `bench_large` on that server). Prints a table, writes
 * bench/results.json and the generated part of BENCHMARKS.md.
 *
 * Options: `--only=1,3` runs some figures; `--quick` shortens every budget (a smoke test, not a result:
 * it writes nothing).
 */
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const onlyArg = args.find((arg) => arg.startsWith('--only='))
const only = onlyArg === undefined ? undefined : new Set(onlyArg.slice('--only='.length).split(',').map(Number))
const wants = (figure: number): boolean => only === undefined || only.has(figure)

const url = process.env.DATABASE_URL
const postgresUrl = url !== undefined && /^postgres(ql)?:\/\//.test(url) ? url : undefined
const dialects: Array<'sqlite' | 'postgres'> = postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres']

const scale = quick ? 0.15 : 1
const budgets = {
  building: { timeMs: 2000 * scale, warmupMs: 300 * scale, clock: 'cpu' as const },
  eager: { timeMs: 4000 * scale, warmupMs: 500 * scale, minSamples: 5 },
  naive: { timeMs: 0, warmupMs: 0, minSamples: quick ? 1 : 3 },
  filters: { timeMs: 8000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 9 },
  joins: { timeMs: 0, warmupMs: 0, minSamples: quick ? 1 : 3 },
  pagination: { timeMs: 3000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 5 },
  guards: { timeMs: 4000 * scale, warmupMs: 300 * scale, minSamples: quick ? 2 : 9 },
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

async function withDataset(dialect: 'sqlite' | 'postgres', spec: typeof EAGER_DATASET, use: (database: BenchDatabase) => Promise<void>): Promise<void> {
  const database = await ensureDataset(dialect, spec, postgresUrl, log)
  databases.add(database.label)
  try {
    await use(database)
  } finally {
    await database.knex.destroy()
  }
}

log(`knex-query-params benchmarks — ${host.cpus} CPUs, ${host.memoryGiB} GiB, Node.js ${host.node}, load average ${host.loadAverage.map((value) => value.toFixed(2)).join(' ')}${quick ? ' — QUICK (smoke test, nothing written)' : ''}`)
if (postgresUrl === undefined) {
  const reason = 'PostgreSQL: DATABASE_URL is not set to a postgres:// URL, so every PostgreSQL figure is skipped (figure 1 still compiles PostgreSQL SQL, which needs no server)'
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
      withDataset(dialect, EAGER_DATASET, async (database) => {
        results.push(...(await eagerLoading(database, EAGER_DATASET, budgets.eager, budgets.naive, log)))
      }),
    )
  }
}
if (wants(3) || wants(4)) {
  for (const dialect of dialects) {
    await withDataset(dialect, LARGE_DATASET, async (database) => {
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
      withDataset(dialect, EAGER_DATASET, async () => {
        results.push(...(await httpThroughput(dialect, load, log)))
      }),
    )
  }
}

if (wants(7)) {
  for (const dialect of dialects) {
    await figure(`7. guard cost (${dialect})`, () =>
      withDataset(dialect, EAGER_DATASET, async (database) => {
        results.push(...(await guardCost(database, budgets.guards, log)))
      }),
    )
  }
}

const report: BenchReport = {
  date: new Date().toISOString(),
  command: `${postgresUrl === undefined ? '' : `DATABASE_URL=${postgresUrl.replace(/\/\/[^@/]*@/, '//…@')} `}npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`,
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
log(`${results.filter((row) => row.met === true).length} targets met, ${missed.length} missed; ${report.durationSeconds.toFixed(0)} s`)
if (quick || only !== undefined) {
  log('(--quick or --only: bench/results.json and BENCHMARKS.md left as they were)')
} else {
  writeReport(report, fileURLToPath(new URL('./results.json', import.meta.url)), fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url)))
  log('wrote bench/results.json and BENCHMARKS.md')
}
if (failed.length > 0) process.exitCode = 1
