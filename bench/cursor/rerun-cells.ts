import { benchServers, type BenchDialect } from '../data/bench-servers.ts'
import { ensureDataset } from '../data/ensure-dataset.ts'
import { cursorPages } from '../cursor-pages.ts'
import { cursorRecipe } from './cursor-dataset.ts'

/**
 * `npx tsx bench/cursor/rerun-cells.ts <sqlite|postgres|mysql> '<order name part>' <depth>…`: measures cells of
 * figure 15 again with the figure's budgets (a cell within noise of its target), on the data set the figure built,
 * and prints them; it writes nothing (bench/results.json and BENCHMARKS.md keep the figure's run).
 */
const [dialect, order = '', ...depths] = process.argv.slice(2)
if (dialect !== 'sqlite' && dialect !== 'postgres' && dialect !== 'mysql')
  throw new Error('usage: rerun-cells.ts <sqlite|postgres|mysql> <order name part> <depth>…')
const wanted = new Set(depths.map(Number))
const database = await ensureDataset(dialect as BenchDialect, cursorRecipe(), benchServers(process.env), console.log)
try {
  await cursorPages(
    database,
    { timeMs: 2000, warmupMs: 200, minSamples: 7 },
    { timeMs: 0, warmupMs: 0, sampleMs: 0, minSamples: 5 },
    console.log,
    (name, depth) => name.includes(order) && (wanted.size === 0 || wanted.has(depth)),
  )
} finally {
  await database.knex.destroy()
}
