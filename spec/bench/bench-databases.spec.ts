import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { randomBytes } from 'node:crypto'
import { benchDatabaseName, benchServers, serverKnex, type BenchServers } from '../../bench/data/bench-servers.ts'
import { ensureDataset, type DatasetRecipe } from '../../bench/data/ensure-dataset.ts'
import { listTables } from '../../fixtures/list-tables.ts'

type ServerDialect = 'postgres' | 'mysql'

const SERVER_URLS: Record<ServerDialect, string | undefined> = {
  postgres: process.env.TEST_POSTGRES_URL,
  mysql: process.env.TEST_MYSQL_URL,
}

function adminOf(dialect: ServerDialect, url: string): Knex {
  const target = new URL(url)
  if (dialect === 'postgres') {
    if (target.pathname === '' || target.pathname === '/') target.pathname = '/postgres'
    return knex({ client: 'pg', connection: target.toString(), pool: { min: 0, max: 1 } })
  }
  target.pathname = '/'
  return knex({
    client: 'mysql2',
    connection: { uri: target.toString() } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 1 },
  })
}

const rowsOf = (dialect: ServerDialect, result: unknown): Array<Record<string, unknown>> =>
  dialect === 'postgres'
    ? (result as { rows: Array<Record<string, unknown>> }).rows
    : (result as [Array<Record<string, unknown>>])[0]

/** A tiny recipe: one table `items` with one row, counting its builds. */
function recipe(name: string, fingerprint: string, builds: string[]): DatasetRecipe {
  return {
    name,
    fingerprint: () => fingerprint,
    async build(db) {
      builds.push(fingerprint)
      await db.schema.createTable('items', (table) => table.integer('id').primary())
      await db('items').insert({ id: 1 })
    },
  }
}

describe('bench: server databases', () => {
  it('takes servers only from BENCH_POSTGRES_URL and BENCH_MYSQL_URL', () => {
    const others = {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app_production',
      MYSQL_URL: 'mysql://root@127.0.0.1:3306/app_production',
      TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      TEST_MYSQL_URL: 'mysql://root@127.0.0.1:3306',
    }
    expect(benchServers(others)).to.deep.equal({})
    expect(
      benchServers({ ...others, BENCH_POSTGRES_URL: 'postgres://a@h/postgres', BENCH_MYSQL_URL: 'mariadb://r@h:3306' }),
    ).to.deep.equal({
      postgres: 'postgres://a@h/postgres',
      mysql: 'mysql://r@h:3306',
    })
    expect(() => benchServers({ BENCH_POSTGRES_URL: 'mysql://r@h/x' })).to.throw(
      Error,
      'BENCH_POSTGRES_URL must be a postgres:// URL',
    )
    expect(() => benchServers({ BENCH_MYSQL_URL: 'postgres://r@h/x' })).to.throw(
      Error,
      'BENCH_MYSQL_URL must be a mysql:// or mariadb:// URL',
    )
  })

  it('names its databases kqp_bench_* and refuses any other name', () => {
    expect(benchDatabaseName('scale')).to.equal('kqp_bench_scale')
    for (const name of ['', 'Scale', 'x; drop database app', 'a-b', 'a"b']) {
      expect(() => benchDatabaseName(name)).to.throw(Error, 'is not a plain kqp_bench_* identifier')
    }
  })

  for (const dialect of ['postgres', 'mysql'] as const) {
    const url = SERVER_URLS[dialect]
    if (url === undefined) {
      it(`${dialect}: needs TEST_${dialect === 'postgres' ? 'POSTGRES' : 'MYSQL'}_URL (skipped)`, function () {
        this.skip()
      })
      continue
    }
    describe(`on ${dialect}`, function () {
      this.timeout(60_000)
      const servers: BenchServers = dialect === 'postgres' ? { postgres: url } : { mysql: url }
      const suffix = `spec_${process.pid}_${randomBytes(4).toString('hex')}`
      const made: string[] = []

      after(async () => {
        const admin = adminOf(dialect, url)
        try {
          for (const name of made)
            await admin.raw(
              dialect === 'postgres'
                ? `drop database if exists ${name} with (force)`
                : `drop database if exists ${name}`,
            )
        } finally {
          await admin.destroy()
        }
      })

      it('refuses a kqp_bench_* database holding tables it did not create, and changes nothing in it', async () => {
        const name = `${suffix}_foreign`
        const database = benchDatabaseName(name)
        const admin = adminOf(dialect, url)
        await admin.raw(`create database ${database}`)
        made.push(database)
        await admin.destroy()
        const app = serverKnex(dialect, url, database, 1)
        try {
          await app.schema.createTable('customers', (table) => table.integer('id').primary())
          await app.schema.createTable('orders', (table) => {
            table.integer('id').primary()
            table.integer('customer_id').notNullable().references('id').inTable('customers')
          })
          await app('customers').insert([{ id: 1 }, { id: 2 }])
          await app('orders').insert([{ id: 10, customer_id: 1 }])
          const builds: string[] = []
          const error: unknown = await ensureDataset(
            dialect,
            recipe(name, 'v1', builds),
            servers,
            () => undefined,
          ).then(
            () => undefined,
            (reason: unknown) => reason,
          )
          expect(String(error))
            .to.contain(`${database} on`)
            .and.to.contain('holds tables (customers, orders) that the bench did not create')
          expect(builds).to.deep.equal([])
          expect(await listTables(app)).to.deep.equal(['customers', 'orders'])
          expect(rowsOf(dialect, await app.raw('select id, customer_id from orders'))).to.deep.equal([
            { id: 10, customer_id: 1 },
          ])
          expect(
            (await app('customers').orderBy('id').select('id')).map((row: { id: number }) => row.id),
          ).to.deep.equal([1, 2])
        } finally {
          await app.destroy()
        }
      })

      it('builds its own database, reuses it while the fingerprint matches and rebuilds it when it changes', async () => {
        const name = `${suffix}_own`
        made.push(benchDatabaseName(name))
        const builds: string[] = []
        const logs: string[] = []
        const open = async (fingerprint: string): Promise<string[]> => {
          const database = await ensureDataset(dialect, recipe(name, fingerprint, builds), servers, (line) =>
            logs.push(line),
          )
          try {
            return await listTables(database.knex)
          } finally {
            await database.knex.destroy()
          }
        }
        expect(await open('v1')).to.deep.equal(['items', 'kqp_bench_dataset', 'kqp_bench_owner'])
        expect(await open('v1')).to.deep.equal(['items', 'kqp_bench_dataset', 'kqp_bench_owner'])
        expect(builds).to.deep.equal(['v1'])
        expect(logs.some((line) => line.includes('cached'))).to.equal(true)
        expect(await open('v2')).to.deep.equal(['items', 'kqp_bench_dataset', 'kqp_bench_owner'])
        expect(builds).to.deep.equal(['v1', 'v2'])
      })
    })
  }
})
