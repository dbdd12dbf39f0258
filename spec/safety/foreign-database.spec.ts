import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectDatabase } from '../../demo/database.ts'
import { ForeignDatabaseError } from '../../fixtures/foreign-database-error.ts'
import { prepareDatabase } from '../../demo/prepare-database.ts'
import { listTables } from '../../fixtures/list-tables.ts'
import { resetDatabase } from '../../fixtures/migrate.ts'
import { DEMO_TABLES } from '../../fixtures/tables.ts'
import { mysqlServerDatabase, postgresServerDatabase, testDatabases, type TestDatabase } from '../support/databases.ts'
import { prepareTestDatabase } from '../support/prepare-test-database.ts'
import { serverDatabase, uniqueTestDatabaseName, type ServerDatabase } from '../support/server-database.ts'
import { createTestDatabases, dropTestDatabases } from '../support/test-database-lifecycle.ts'
import { createApplicationSchema } from './support/application-schema.ts'
import { describeDatabase, type DatabaseDescription } from './support/describe-database.ts'
import { runScript } from './support/run-script.ts'

/** A database to try the migrating code paths on: an SQLite file, or a new database on a server of the run. */
interface Target {
  label: string
  /** A new database, empty; `url` is what `DATABASE_URL` would say. */
  create(): Promise<{ url: string; testDatabase: () => TestDatabase }>
  remove(): Promise<void>
  /** On servers: the server, a harness database on a given server URL (as `TEST_*_URL`), and whether a database exists. */
  server?: {
    dialect: ServerDatabase['dialect']
    serverUrl: string
    build: (serverUrl: string) => TestDatabase
    exists: (admin: Knex, name: string) => Promise<boolean>
  }
}

const BOOKKEEPING = ['knex_migrations', 'knex_migrations_lock']
const demoTables = [...DEMO_TABLES, ...BOOKKEEPING].sort()

function sqliteTarget(): Target {
  let directory = ''
  let file = 0
  return {
    label: 'sqlite (a file)',
    async create() {
      directory ||= await mkdtemp(join(tmpdir(), 'kqp-safety-'))
      const filename = join(directory, `app-${++file}.sqlite`)
      const testDatabase = (): TestDatabase => ({
        name: 'sqlite',
        engine: 'sqlite',
        label: `sqlite (${filename})`,
        knex: knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true }),
      })
      return { url: `sqlite:${filename}`, testDatabase }
    },
    async remove() {
      if (directory !== '') await rm(directory, { recursive: true, force: true })
      directory = ''
    },
  }
}

function serverTarget(run: TestDatabase & { server: ServerDatabase }): Target {
  const databases: ServerDatabase[] = []
  const build = run.name === 'mysql' ? mysqlServerDatabase : postgresServerDatabase
  return {
    label: `${run.name} (a database on the server of the run)`,
    async create() {
      const database = serverDatabase(run.server.dialect, run.server.serverUrl, uniqueTestDatabaseName('app'))
      await database.create()
      databases.push(database)
      return { url: database.url, testDatabase: () => build(database.serverUrl, database.name) }
    },
    async remove() {
      for (const database of databases.splice(0)) await database.drop()
    },
    server: {
      dialect: run.server.dialect,
      serverUrl: run.server.serverUrl,
      build,
      async exists(admin, name) {
        const sql =
          run.name === 'mysql'
            ? 'select schema_name from information_schema.schemata where schema_name = ?'
            : 'select datname from pg_database where datname = ?'
        const result: unknown = await admin.raw(sql, [name])
        return (run.name === 'mysql' ? (result as [unknown[]])[0] : (result as { rows: unknown[] }).rows).length > 0
      },
    },
  }
}

const targets: Target[] = [
  sqliteTarget(),
  ...testDatabases().flatMap((run) => (run.server === undefined ? [] : [serverTarget({ ...run, server: run.server })])),
]

for (const target of targets) {
  describe(`safety on ${target.label}: a database holding an application's tables is never changed`, function () {
    this.timeout(60_000)
    let url = ''
    let foreign: TestDatabase
    let original: DatabaseDescription

    before(async () => {
      const created = await target.create()
      url = created.url
      foreign = created.testDatabase()
      await createApplicationSchema(foreign.knex)
      original = await describeDatabase(foreign.knex)
    })

    after(async () => {
      await foreign.knex.destroy()
      await target.remove()
    })

    it('holds users, orders, their rows and the foreign key orders.user_id → users.id', () => {
      expect(original.tables).to.deep.equal(['orders', 'users'])
      expect(original.rows.orders).to.have.length(3)
      expect(original.rows.users).to.have.length(2)
      expect(original.foreignKeys).to.have.length(1)
      expect(original.foreignKeys[0]).to.match(/orders.*user_id.*users.*id/i)
    })

    it('the demo (npm run demo, DATABASE_URL naming it) refuses to start, says why, and writes nothing', async () => {
      const { code, output } = await runScript(
        'demo/server.ts',
        { DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1' },
        40_000,
      )
      expect(code, output).to.equal(1)
      expect(output).to.contain('Refusing to migrate, seed or reset this database')
      expect(output).to.contain('tables the demo did not create (orders, users)')
      expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
    })

    it("the demo's prepareDatabase throws a ForeignDatabaseError naming the foreign tables, and writes nothing", async () => {
      const demo = connectDatabase(url)
      try {
        const error: unknown = await prepareDatabase(demo).then(
          () => undefined,
          (reason: unknown) => reason,
        )
        expect(error).to.be.instanceOf(ForeignDatabaseError)
        expect((error as ForeignDatabaseError).foreign).to.deep.equal(['orders', 'users'])
      } finally {
        await demo.destroy()
      }
      expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
    })

    it("the suite's preparation (prepareTestDatabase, also run by npm run fuzz and npm run load) refuses it and writes nothing", async () => {
      const error: unknown = await prepareTestDatabase(foreign).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      expect(error).to.be.instanceOf(Error)
      expect((error as Error).message).to.match(/^refusing to prepare .*: it already holds tables \(orders, users\)/)
      expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
    })

    it("resetDatabase (the benchmark's rebuild of its data set) throws a ForeignDatabaseError and drops nothing", async () => {
      const error: unknown = await resetDatabase(foreign.knex).then(
        () => undefined,
        (reason: unknown) => reason,
      )
      expect(error).to.be.instanceOf(ForeignDatabaseError)
      expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
    })

    const server = target.server
    if (server !== undefined) {
      it('a whole harness run whose server URL names it (create, migrate, seed, drop) works only in a kqp_test_ database of its own', async () => {
        const run = server.build(url)
        const name = run.server?.name ?? ''
        expect(name).to.match(/^kqp_test_\d+_[0-9a-f]{8}$/)
        await createTestDatabases([run])
        try {
          await prepareTestDatabase(run)
          expect(await listTables(run.knex)).to.deep.equal(demoTables)
          expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
        } finally {
          await dropTestDatabases([run])
        }
        expect(await server.exists(foreign.knex, name), `${name} dropped`).to.equal(false)
        expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
      })

      it(`npm run fuzz${server.dialect === 'postgres' ? ' and npm run load' : ''}, with the server URL naming it: run in kqp_test_ databases of their own, drop them, leave it unchanged`, async function () {
        this.timeout(240_000)
        const variable = server.dialect === 'postgres' ? 'TEST_POSTGRES_URL' : 'TEST_MYSQL_URL'
        const runs = [runScript('scripts/fuzz.ts', { [variable]: url, FUZZ_RUNS: '1', FUZZ_ONLY: 'raw' }, 200_000)]
        if (server.dialect === 'postgres')
          runs.push(
            runScript('scripts/load.ts', { [variable]: url, LOAD_CONNECTIONS: '2', LOAD_SECONDS: '1' }, 200_000),
          )
        for (const { code, output } of await Promise.all(runs)) {
          expect(code, output).to.equal(0)
          const used = [
            ...output.matchAll(new RegExp(`${server.dialect} \\(server [^,]+, database (kqp_test_\\w+)\\)`, 'g')),
          ].map((match) => match[1] ?? '')
          expect(used, output).to.have.length.greaterThan(0)
          for (const name of used) {
            expect(name).not.to.equal(new URL(url).pathname.slice(1))
            expect(await server.exists(foreign.knex, name), `${name} dropped`).to.equal(false)
          }
        }
        expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
      })

      it('creating a test database under its name fails, and leaves it alone', async () => {
        const again = serverDatabase(server.dialect, server.serverUrl, new URL(url).pathname.slice(1))
        const error: unknown = await again.create().then(
          () => undefined,
          (reason: unknown) => reason,
        )
        expect(String(error)).to.match(/exists/)
        expect(await describeDatabase(foreign.knex)).to.deep.equal(original)
      })
    }
  })

  describe(`safety on ${target.label}: the demo sets up an empty database, and only its own`, function () {
    this.timeout(60_000)

    after(() => target.remove())

    it('migrates and seeds an empty database, starts again on it without reseeding, and refuses it once a foreign table is added', async () => {
      const { url } = await target.create()
      const demo = connectDatabase(url)
      try {
        expect(await prepareDatabase(demo)).to.deep.equal({ seeded: true })
        expect(await listTables(demo)).to.deep.equal(demoTables)
        expect(await prepareDatabase(demo)).to.deep.equal({ seeded: false })
        await demo.schema.createTable('audit_log', (table) => table.increments('id'))
        const error: unknown = await prepareDatabase(demo).then(
          () => undefined,
          (reason: unknown) => reason,
        )
        expect(error).to.be.instanceOf(ForeignDatabaseError)
        expect((error as ForeignDatabaseError).foreign).to.deep.equal(['audit_log'])
      } finally {
        await demo.destroy()
      }
    })

    it('resetDatabase empties a database the demo set up', async () => {
      const { url } = await target.create()
      const demo = connectDatabase(url)
      try {
        await prepareDatabase(demo)
        await resetDatabase(demo)
        expect(await listTables(demo)).to.deep.equal([])
      } finally {
        await demo.destroy()
      }
    })

    it('refuses a database whose knex migrations are not its own', async () => {
      const { url } = await target.create()
      const demo = connectDatabase(url)
      try {
        await prepareDatabase(demo)
        await demo('knex_migrations').insert({
          name: '20230101000000_create_invoices_table.js',
          batch: 2,
          migration_time: new Date(),
        })
        const error: unknown = await prepareDatabase(demo).then(
          () => undefined,
          (reason: unknown) => reason,
        )
        expect(error).to.be.instanceOf(ForeignDatabaseError)
        expect((error as ForeignDatabaseError).foreign).to.deep.equal([
          'migration 20230101000000_create_invoices_table.js',
        ])
      } finally {
        await demo.destroy()
      }
    })
  })
}
