/**
 * Figure 16's seeded random requests (part 2) at a larger count, on the databases asked for: p50, p99, the maximum,
 * how many over 2 s and how many hit the 5 s timeout, each request over 2 s and the slowest's SQL. The figure itself
 * sends 150; issue 35's figure 5 sends 1,400 on MariaDB. Nothing is written.
 *
 * `BENCH_POSTGRES_URL=postgres://… BENCH_MYSQL_URL=mysql://… npx tsx bench/worst/random-requests.ts --count=1400
 * --on=sqlite,postgres,mysql` (a database whose URL is missing is skipped; figure 16's data set is built when
 * missing, as `npm run bench` builds it: `bench/.cache/worst.sqlite`, `kqp_bench_worst` on each server).
 */
import { loadavg } from 'node:os'
import { type BenchDialect, benchServers } from '../data/bench-servers.ts'
import { ensureDataset } from '../data/ensure-dataset.ts'
import { worstRecipe } from './worst-dataset.ts'
import { randomRequests } from './worst-request.ts'

const option = (name: string): string | undefined =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const count = Number(option('count') ?? 1_400)
if (!Number.isInteger(count) || count < 1) throw new Error(`--count=${option('count')}: a positive integer`)
const on = (option('on') ?? 'sqlite,postgres,mysql').split(',') as BenchDialect[]
const servers = benchServers(process.env)
const print = (line: string): void => console.log(line)
const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

print(`${count} seeded random requests (seed 35) on ${on.join(', ')}, ${new Date().toISOString()}, load ${load()}`)
for (const dialect of on) {
  if (dialect !== 'sqlite' && servers[dialect] === undefined) {
    print(`${dialect}: no BENCH_${dialect === 'postgres' ? 'POSTGRES' : 'MYSQL'}_URL, skipped`)
    continue
  }
  const database = await ensureDataset(dialect, worstRecipe(), servers, print)
  try {
    const started = performance.now()
    await randomRequests(database, count, print)
    print(`  ${dialect}: ${((performance.now() - started) / 1000).toFixed(0)} s, load ${load()}`)
  } finally {
    await database.knex.destroy()
  }
}
