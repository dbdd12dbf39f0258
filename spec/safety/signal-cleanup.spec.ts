import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import knex from 'knex'
import { mysqlConnection } from '../../fixtures/driver-settings.ts'
import { TEST_SERVER_VARIABLES } from '../support/databases.ts'

const INTERRUPTED_RUN = fileURLToPath(new URL('./support/interrupted-run.ts', import.meta.url))

async function databaseExists(dialect: 'postgres' | 'mysql', serverUrl: string, name: string): Promise<boolean> {
  const admin =
    dialect === 'mysql'
      ? knex({ client: 'mysql2', connection: mysqlConnection(serverUrl) })
      : knex({ client: 'pg', connection: serverUrl })
  try {
    if (dialect === 'mysql') {
      const [rows] = (await admin.raw('select schema_name from information_schema.schemata where schema_name = ?', [
        name,
      ])) as [unknown[]]
      return rows.length > 0
    }
    const { rows } = (await admin.raw('select datname from pg_database where datname = ?', [name])) as {
      rows: unknown[]
    }
    return rows.length > 0
  } finally {
    await admin.destroy()
  }
}

describe('safety: an interrupted run drops every database it created', function () {
  this.timeout(60_000)
  for (const dialect of ['postgres', 'mysql'] as const) {
    const variable = TEST_SERVER_VARIABLES[dialect]
    const serverUrl = process.env[variable]
    if (serverUrl === undefined || serverUrl === '') {
      it(`${dialect}: needs ${variable} (skipped)`, function () {
        this.skip()
      })
      continue
    }
    it(`${dialect}: SIGINT drops the run's database and a spec's own extra database, and exits 130`, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', INTERRUPTED_RUN, dialect, serverUrl], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let stdout = ''
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
      while (!stdout.includes('\n')) await once(child.stdout, 'data')
      const names = JSON.parse(stdout.split('\n')[0] as string) as string[]
      expect(names).to.have.length(2)
      for (const name of names) expect(await databaseExists(dialect, serverUrl, name), `${name} before`).to.equal(true)
      child.kill('SIGINT')
      const [code] = (await once(child, 'exit')) as [number | null]
      expect(code).to.equal(130)
      for (const name of names) expect(await databaseExists(dialect, serverUrl, name), `${name} after`).to.equal(false)
    })
  }
})
