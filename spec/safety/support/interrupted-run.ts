import { mysqlServerDatabase, postgresServerDatabase } from '../../support/databases.ts'
import { uniqueTestDatabaseName } from '../../support/server-database.ts'
import { createTestDatabases, dropTestDatabasesOnSignal } from '../../support/test-database-lifecycle.ts'

// A run interrupted mid-way: the run's database and a spec's own extra database exist, only the first is
// known to the signal handler. Prints both names, then waits for the signal.
const [dialect, serverUrl] = process.argv.slice(2) as ['postgres' | 'mysql', string]
const open = dialect === 'mysql' ? mysqlServerDatabase : postgresServerDatabase
const run = open(serverUrl)
const extra = open(serverUrl, uniqueTestDatabaseName('extra'))
dropTestDatabasesOnSignal([run])
await createTestDatabases([run])
await createTestDatabases([extra])
await extra.knex.raw('select 1')
console.log(JSON.stringify([run.server?.name, extra.server?.name]))
setInterval(() => undefined, 1000)
