/**
 * `npm run example`: migrates and seeds the demo database (SQLite file `example.sqlite`, or
 * DATABASE_URL), then prints, for a few client query strings, the SQL the library builds and the rows.
 */
import knex, { type Knex } from 'knex'
import { migrate } from '../fixtures/migrate.ts'
import { relationMap } from '../fixtures/relation-map.ts'
import { seed } from '../fixtures/seed.ts'
import { QueryParamsError, applyQueryParams, parseQueryParams } from '../lib/index.ts'

const url = process.env['DATABASE_URL']
const db: Knex = url === undefined
  ? knex({ client: 'better-sqlite3', connection: { filename: 'example.sqlite' }, useNullAsDefault: true })
  : knex({ client: url.startsWith('mysql') ? 'mysql2' : 'pg', connection: url })

const examples: Array<[table: string, query: string]> = [
  ['users', 'wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&with[0]=posts&orders[0][column]=id&orders[0][direction]=desc&limit=2&page=1&columns[0]=id&columns[1]=name'],
  ['posts', 'wheres[0][column]=published&wheres[0][value]=true&wheres[1][column]=views&wheres[1][operator]=%3E%3D&wheres[1][value]=100&wheres[1][boolean]=or&columns[0]=id&columns[1]=title&with[0]=tags&limit=3'],
  ['images', 'with[0]=imageable&columns[0]=id&columns[1]=url&limit=2'],
  ['users', 'wheres[0][column]=password&wheres[0][operator]=like&wheres[0][value]=a%25'],
]

await migrate(db)
await seed(db)
for (const [table, query] of examples) {
  console.log(`\nGET /${table}?${query}`)
  try {
    const builder = applyQueryParams(db(table), parseQueryParams(query), relationMap)
    const { sql, bindings } = builder.toSQL()
    console.log(`SQL:      ${sql}\nBindings: ${JSON.stringify(bindings)}`)
    const rows = (await builder) as unknown[]
    console.log(`Rows (${rows.length}):`)
    for (const row of rows) console.log(`  ${JSON.stringify(row)}`)
  } catch (error) {
    if (!(error instanceof QueryParamsError)) throw error
    console.log(`400:      ${JSON.stringify(error.toJSON())}`)
  }
}
await db.destroy()
