import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  assertTestDatabaseName,
  serverDatabase,
  TEST_DATABASE_PREFIX,
  uniqueTestDatabaseName,
} from '../support/server-database.ts'

const PRINT_TEST_DATABASES = fileURLToPath(new URL('./support/print-test-databases.ts', import.meta.url))

async function engines(env: Record<string, string>): Promise<unknown> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(TEST_POSTGRES_URL|TEST_MYSQL_URL|PG\w+)$/.test(name)),
  )
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PRINT_TEST_DATABASES], {
    env: { ...clean, ...env },
  })
  return JSON.parse(stdout) as unknown
}

describe('safety: the harness touches only kqp_test_* databases it created', function () {
  this.timeout(30_000)

  it('names each run database kqp_test_<pid>_<random>, different every time', () => {
    const first = uniqueTestDatabaseName()
    const second = uniqueTestDatabaseName('app')
    expect(first).to.match(new RegExp(`^${TEST_DATABASE_PREFIX}${process.pid}_[0-9a-f]{8}$`))
    expect(second).to.match(new RegExp(`^${TEST_DATABASE_PREFIX}${process.pid}_[0-9a-f]{8}_app$`))
    expect(uniqueTestDatabaseName()).not.to.equal(first)
  })

  for (const name of [
    'postgres',
    'app_production',
    'kqp_safe',
    'kqp_test_',
    'KQP_TEST_x',
    'kqp_test_x; drop database app',
    'kqp_test_a"b',
    `kqp_test_${'a'.repeat(60)}`,
  ]) {
    it(`refuses to create or drop a database named ${JSON.stringify(name.length > 40 ? `${name.slice(0, 20)}…` : name)}`, () => {
      expect(() => assertTestDatabaseName(name)).to.throw(Error, `refusing to create or drop database '${name}'`)
      expect(() => serverDatabase('postgres', 'postgres://postgres@127.0.0.1:1/postgres', name)).to.throw(
        Error,
        'refusing to create or drop',
      )
      expect(() => serverDatabase('mysql', 'mysql://root@127.0.0.1:1', name)).to.throw(
        Error,
        'refusing to create or drop',
      )
    })
  }

  it('drop() of a database this process did not create does nothing, without even connecting', async () => {
    const unreachable = serverDatabase('postgres', 'postgres://postgres@127.0.0.1:1/postgres', uniqueTestDatabaseName())
    await unreachable.drop()
    const error: unknown = await unreachable.create().then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(String(error)).to.match(/ECONNREFUSED|connect/)
    await unreachable.drop()
  })

  it('points the run database at the server of the URL and keeps the URL’s other parts', () => {
    const database = serverDatabase(
      'postgres',
      'postgres://app:secret@db.example:6543/app_production?sslmode=require',
      'kqp_test_1_abcdef01',
    )
    expect(database.url).to.equal('postgres://app:secret@db.example:6543/kqp_test_1_abcdef01?sslmode=require')
    expect(database.host).to.equal('db.example:6543')
  })

  it('ignores DATABASE_URL, MYSQL_URL and PGHOST: without TEST_POSTGRES_URL/TEST_MYSQL_URL the suite runs on SQLite and PGlite', async () => {
    const env = {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/app_production',
      MYSQL_URL: 'mysql://root@127.0.0.1:3306/app_production',
      PGHOST: '127.0.0.1',
    }
    expect(await engines(env)).to.deep.equal(['sqlite', 'pglite'])
    expect(
      await engines({
        ...env,
        TEST_POSTGRES_URL: 'postgres://postgres@127.0.0.1:1/postgres',
        TEST_MYSQL_URL: 'mysql://root@127.0.0.1:1',
      }),
    ).to.deep.equal(['sqlite', 'postgres-server', 'mysql'])
  })
})
