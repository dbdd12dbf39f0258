/**
 * Measurement behind the top-N eager-load form (README, Eager loading; BENCHMARKS.md, figure 8): the related
 * rows of 1,000 parents, top N per parent, as the library writes them (`row_number()` in a derived table)
 * against PostgreSQL's `cross join lateral (… limit N)` over the parent keys, on figure 6's data set
 * (`kqp_bench_scale`). Cases: a team's first member by key (a hasOne, 100 candidates each), a team's 3 newest
 * members (a top N on an unindexed order), a user's 3 newest posts (10–20 candidates each). Prints the median
 * of 15 rounds of each form, timed alternately, and window ÷ lateral (above 1: LATERAL is faster).
 *
 *   npx tsx bench/memory/lateral-vs-window.ts postgres://postgres@127.0.0.1:5432/postgres
 */
import knex from 'knex'
import { benchDatabaseName } from '../data/bench-servers.ts'

const [, , url = 'postgres://postgres@127.0.0.1:5432/postgres'] = process.argv
const target = new URL(url)
target.pathname = `/${benchDatabaseName('scale')}`
const db = knex({ client: 'pg', connection: target.toString(), pool: { min: 1, max: 1 } })

interface Case {
  name: string
  table: string
  columns: string
  foreignKey: string
  order: string
  limit: number
  parents: string
}

const CASES: Case[] = [
  {
    name: 'teams → first member (hasOne)',
    table: 'users',
    columns: 'id, team_id, name, email, created_at',
    foreignKey: 'team_id',
    order: 'id asc',
    limit: 1,
    parents: 'select id from teams order by id limit 1000',
  },
  {
    name: 'teams → 3 newest members',
    table: 'users',
    columns: 'id, team_id, name, email, created_at',
    foreignKey: 'team_id',
    order: 'created_at desc, id desc',
    limit: 3,
    parents: 'select id from teams order by id limit 1000',
  },
  {
    name: 'users → 3 newest posts',
    table: 'posts',
    columns: 'id, user_id, title, kind, published_at, views, created_at',
    foreignKey: 'user_id',
    order: 'created_at desc, id desc',
    limit: 3,
    parents: 'select id from users order by id limit 1000',
  },
]

async function time(sql: string, bindings: readonly number[]): Promise<number> {
  const start = process.hrtime.bigint()
  await db.raw(sql, bindings)
  return Number(process.hrtime.bigint() - start) / 1e6
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

for (const item of CASES) {
  const keys = ((await db.raw(item.parents)) as { rows: Array<{ id: number }> }).rows.map((row) => row.id)
  const list = keys.map(() => '?').join(', ')
  const window =
    `select * from (select ${item.columns}, row_number() over (partition by ${item.foreignKey} order by ${item.order}) as __kqp_rank ` +
    `from ${item.table} where ${item.foreignKey} in (${list})) as __kqp_ranked where __kqp_rank <= ${item.limit} order by __kqp_rank limit 10001`
  const lateral =
    `select r.* from (values ${keys.map(() => '(?::integer)').join(', ')}) as k(key) cross join lateral ` +
    `(select ${item.columns} from ${item.table} where ${item.foreignKey} = k.key order by ${item.order} limit ${item.limit}) as r limit 10001`
  for (let i = 0; i < 3; i++) {
    await time(window, keys)
    await time(lateral, keys)
  }
  const windowMs: number[] = []
  const lateralMs: number[] = []
  for (let round = 0; round < 15; round++) {
    if (round % 2 === 0) {
      windowMs.push(await time(window, keys))
      lateralMs.push(await time(lateral, keys))
    } else {
      lateralMs.push(await time(lateral, keys))
      windowMs.push(await time(window, keys))
    }
  }
  const w = median(windowMs)
  const l = median(lateralMs)
  console.log(
    `${item.name}: window ${w.toFixed(1)} ms, lateral ${l.toFixed(1)} ms, window ÷ lateral ×${(w / l).toFixed(2)}`,
  )
}
await db.destroy()
