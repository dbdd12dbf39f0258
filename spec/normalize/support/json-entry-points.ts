// Run as a child process (`TZ` set by the parent): writes the rows of `json-rows.ts` on each database named in
// argv[2] (JSON: SQLite always, server URLs when given), reads them back through every entry point and prints
// one JSON object: database → entry point → rows. The parent compares the bytes.
import knex, { type Knex } from 'knex'
import type { Readable } from 'node:stream'
import { applyQueryParams, loadRelations, paginate, parseQueryParams } from '../../../lib/index.ts'
import { createJsonTables, dropJsonTables, jsonMap, writeJsonRows } from './json-rows.ts'

interface Targets {
  postgres?: string
  mysql?: string
}

const REQUEST = 'with[0]=lines&orders[0][column]=id'
const targets = JSON.parse(process.argv[2] ?? '{}') as Targets

const read = (db: Knex, query: string, table = 'json_orders'): Knex.QueryBuilder =>
  applyQueryParams(db(table), parseQueryParams(query), jsonMap)

async function streamed(builder: Knex.QueryBuilder): Promise<unknown[]> {
  const rows: unknown[] = []
  for await (const row of builder.stream() as Readable) rows.push(row)
  return rows
}

async function entryPoints(db: Knex, streams: boolean): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  out.await = await read(db, REQUEST)
  out.then = await new Promise((resolve, reject) => {
    void read(db, REQUEST).then(resolve, reject)
  })
  out.clone = await read(db, REQUEST).clone()
  out.first = await read(db, REQUEST).first()
  const page = await paginate(read(db, `${REQUEST}&page=1&limit=2`), { page: 1, limit: 2 })
  out.paginate = page
  out.paginateUnlimited = (await paginate(read(db, REQUEST), { page: 2, limit: 2 })).data
  const own = await db('json_orders')
    .select('id', 'paid', 'day', 'at', 'noted', 'price', 'weight', 'big', 'label')
    .orderBy('id')
  out.loadRelations = await loadRelations(db, 'json_orders', own, ['lines'], jsonMap)
  out.lineWithOrder = await read(db, 'with[0]=order&orders[0][column]=id', 'json_lines')
  out.lineWithOrderClone = await read(db, 'with[0]=order&orders[0][column]=id', 'json_lines').clone()
  out.filteredAt = await read(
    db,
    'wheres[0][column]=at&wheres[0][operator]=>=&wheres[0][value]=2024-03-01T00:00:00Z&columns[0]=id',
  )
  out.filteredNoted = await read(
    db,
    'wheres[0][column]=noted&wheres[0][operator]=<&wheres[0][value]=2024-03-01T23:30:00Z&columns[0]=id',
  )
  out.orderedAt = await read(db, 'orders[0][column]=at&orders[0][direction]=desc&columns[0]=id&columns[1]=at')
  out.filteredBig = await read(db, 'wheres[0][column]=big&wheres[0][value]=9007199254740993&columns[0]=id')
  out.filteredPrice = await read(
    db,
    'wheres[0][column]=price&wheres[0][operator]=in&wheres[0][value][0]=4.990&wheres[0][value][1]=69.4&columns[0]=id',
  )
  out.filteredDay = await read(db, 'wheres[0][column]=day&wheres[0][value]=2024-03-01&columns[0]=id')
  if (streams) {
    out.stream = await streamed(read(db, REQUEST))
    out.streamClone = await streamed(read(db, REQUEST).clone())
    out.lineWithOrderStream = await streamed(read(db, 'with[0]=order&orders[0][column]=id', 'json_lines'))
  }
  return out
}

async function run(
  name: string,
  writer: Knex,
  readers: Knex[],
  streams: boolean,
  sqlite = false,
): Promise<Record<string, unknown>> {
  try {
    await createJsonTables(writer)
    await writeJsonRows(writer, sqlite)
    const results: Record<string, unknown> = {}
    for (const [index, reader] of readers.entries())
      results[index === 0 ? name : `${name}#${index}`] = await entryPoints(reader, streams)
    return results
  } finally {
    await dropJsonTables(writer)
  }
}

const results: Record<string, unknown> = {}
const sqlite = knex({
  client: 'better-sqlite3',
  connection: { filename: ':memory:', options: { safeIntegers: true } },
  useNullAsDefault: true,
  pool: { min: 1, max: 1 },
})
Object.assign(results, await run('sqlite', sqlite, [sqlite], true, true))
await sqlite.destroy()
if (targets.postgres !== undefined) {
  // pg as it comes: no type parsers, the session in the process's time zone (as a server configured for it runs);
  // read again in a UTC session, where the library has pg give date-times as text (see jsonReadOptions).
  const url = targets.postgres
  const inZone = (zone: string): Knex =>
    knex({
      client: 'pg',
      connection: url,
      pool: {
        min: 0,
        max: 2,
        afterCreate: (
          client: { query(sql: string): Promise<unknown> },
          done: (error: unknown, client: unknown) => void,
        ) =>
          void client.query(`set time zone '${zone}'`).then(
            () => done(null, client),
            (error: unknown) => done(error, client),
          ),
      },
    })
  const postgres = inZone(process.env.TZ ?? 'UTC')
  const utc = inZone('UTC')
  Object.assign(results, await run('postgres', postgres, [postgres, utc], false))
  await postgres.destroy()
  await utc.destroy()
}
if (targets.mysql !== undefined) {
  // Written and read with the recommended `timezone: 'Z'`, and read again by a connection without it.
  const utc = knex({
    client: 'mysql2',
    connection: { uri: targets.mysql, timezone: 'Z', supportBigNumbers: true } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 2 },
  })
  const local = knex({
    client: 'mysql2',
    connection: { uri: targets.mysql, supportBigNumbers: true } as Knex.MySql2ConnectionConfig,
    pool: { min: 0, max: 2 },
  })
  Object.assign(results, await run('mysql', utc, [utc, local], true))
  await utc.destroy()
  await local.destroy()
}
process.stdout.write(JSON.stringify(results))
