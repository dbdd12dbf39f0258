/**
 * Measurement behind `deferredPageOffset` (README, Dialect notes; BENCHMARKS.md, figure 6): a page of 20
 * newest posts, plain `limit/offset` against the deferred join on the key, at offsets 0–9,980, on figure 6's
 * data set (run `npm run bench -- --only=6` once to build it). Prints plain ÷ deferred (above 1: the
 * deferred join is faster), the median of 15 rounds, each timed twice in alternating order.
 *
 *   npx tsx bench/deferred-page-threshold.ts sqlite
 *   npx tsx bench/deferred-page-threshold.ts mysql mysql://root@127.0.0.1:3306
 */
import knex, { type Knex } from 'knex'
import { fileURLToPath } from 'node:url'
import { benchDatabaseName } from './data/bench-servers.ts'

const [, , which = 'sqlite', url = 'mysql://root@127.0.0.1:3306'] = process.argv
const OFFSETS = [0, 20, 50, 100, 200, 300, 500, 1000, 9980]
const COLUMNS = 'p.id, p.user_id, p.title, p.kind, p.published_at, p.views, p.created_at'

function connect(): Knex {
  if (which === 'mysql')
    return knex({
      client: 'mysql2',
      connection: `${url.replace(/\/$/, '')}/${benchDatabaseName('scale')}`,
      pool: { min: 1, max: 1 },
    })
  const filename = fileURLToPath(new URL('.cache/scale.sqlite', import.meta.url))
  return knex({
    client: 'better-sqlite3',
    connection: { filename, readonly: true } as Knex.Sqlite3ConnectionConfig,
    useNullAsDefault: true,
  })
}

const plain = (offset: number, where: string): string =>
  `select ${COLUMNS} from posts p ${where} order by p.created_at desc, p.id desc limit 20 offset ${offset}`
const deferred = (offset: number, where: string): string =>
  `select ${COLUMNS} from (select p.id from posts p ${where} order by p.created_at desc, p.id desc limit 20 offset ${offset}) k ` +
  `cross join posts p on p.id = k.id order by p.created_at desc, p.id desc`

async function median(db: Knex, sql: string, rounds = 15): Promise<number> {
  for (let i = 0; i < 5; i++) await db.raw(sql)
  const samples: number[] = []
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint()
    await db.raw(sql)
    samples.push(Number(process.hrtime.bigint() - start) / 1e3)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(rounds / 2)] ?? Number.NaN
}

const db = connect()
try {
  for (const where of ['', "where p.kind = 'review'"]) {
    for (const offset of OFFSETS) {
      const a1 = await median(db, plain(offset, where))
      const b1 = await median(db, deferred(offset, where))
      const b2 = await median(db, deferred(offset, where))
      const a2 = await median(db, plain(offset, where))
      console.log(
        `${which} ${where === '' ? 'all posts' : where} offset ${offset}: plain ${((a1 + a2) / 2).toFixed(0)} µs, deferred ${((b1 + b2) / 2).toFixed(0)} µs, plain ÷ deferred ×${((a1 + a2) / (b1 + b2)).toFixed(2)}`,
      )
    }
  }
} finally {
  await db.destroy()
}
