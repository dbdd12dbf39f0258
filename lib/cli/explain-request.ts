import knex, { type Knex } from 'knex'
import { applyQueryParams } from '../apply/apply-query-params.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { explainSql, rawRows } from '../dialect/explain-sql.ts'
import { CLIENT_LABELS, CLIENT_NAMES, clientOfUrl, compileOnlyConfig, readOnlyConfig, type ClientName } from '../dialect/knex-config-for.ts'
import { APPLY_DEFAULTS, withDefaults } from '../options.ts'
import { parseQueryParams } from '../parse/parse-query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import { validateQueryParams } from '../validate/validate-query-params.ts'
import type { CliIo } from './cli-io.ts'
import { describeEagerLoading } from './describe-eager-loading.ts'
import { tableOfRequest } from './table-of-request.ts'
import { UsageError } from './usage-error.ts'

/** What to explain a request with. */
export interface ExplainSettings {
  map: RelationMap
  table?: string
  /** Only this database's SQL. */
  client?: ClientName
  /** A database to run the query on, read-only. */
  db?: string
  strict: boolean
}

/** knex's own logging off: a failed connection is reported once, as a usage error. */
const QUIET = { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined }

const TRANSACTION_CONTROL = /^(begin|set transaction|start transaction|commit|rollback)\b/i

/**
 * Prints what one client request becomes: the parsed params, the SQL and bindings per database, the
 * eager-loading queries, and with `settings.db` the rows, the queries that ran and the query plan. The
 * database is only read: PostgreSQL and MySQL in a `READ ONLY` transaction rolled back at the end,
 * SQLite opened read-only.
 *
 * @throws {QueryParamsError} when the request is rejected; {@link UsageError} for a table the map lacks.
 * @example
 * await explainRequest('/users?limit=2', { map, strict: false }, { out: console.log, err: console.error })
 */
export async function explainRequest(request: string, settings: ExplainSettings, io: CliIo): Promise<void> {
  const table = tableOfRequest(request, settings.table)
  if (!Object.hasOwn(settings.map, table)) {
    throw new UsageError(`Table '${table}' is not in the relation map (tables: ${Object.keys(settings.map).join(', ')}).`)
  }
  const params = parseQueryParams(request, { strict: settings.strict })
  io.out(`Request: ${request}`)
  io.out(`Table:   ${table}`)
  io.out(`Params:  ${JSON.stringify(params, null, 2).replace(/\n/g, '\n         ')}`)
  if (settings.db !== undefined) return explainOnDatabase(settings.db, table, params, settings, io)

  for (const name of settings.client === undefined ? CLIENT_NAMES : [settings.client]) {
    const db = knex(compileOnlyConfig(name))
    try {
      printSql(CLIENT_LABELS[name], applyQueryParams(db(table), params, settings.map), io)
    } finally {
      await db.destroy()
    }
  }
  const plan = validateQueryParams(params, table, settings.map, withDefaults(APPLY_DEFAULTS, {}))
  if (plan.with.length > 0) {
    io.out('Eager loading (with): after the main query, one query per relation and level, for the keys of the rows found (run with --db to see them):')
    for (const line of describeEagerLoading(plan.with)) io.out(`  ${line}`)
  }
  io.out('')
}

function printSql(label: string, builder: Knex.QueryBuilder, io: CliIo): { sql: string; bindings: readonly unknown[] } {
  const compiled = builder.toSQL()
  const native = compiled.toNative()
  io.out(`${label}:`)
  io.out(`  SQL:      ${native.sql}`)
  io.out(`  Bindings: ${JSON.stringify(native.bindings)}`)
  return { sql: compiled.sql, bindings: compiled.bindings }
}

async function explainOnDatabase(url: string, table: string, params: ReturnType<typeof parseQueryParams>, settings: ExplainSettings, io: CliIo): Promise<void> {
  const name = clientOfUrl(url)
  if (name === undefined) throw new UsageError(`Unknown database URL '${url}': expected postgres://…, mysql://…, or a SQLite file (sqlite:path, *.sqlite, *.db).`)
  if (settings.client !== undefined && settings.client !== name) throw new UsageError(`--client ${settings.client} does not match --db, a ${CLIENT_LABELS[name]} database.`)
  const db = knex({ ...readOnlyConfig(url), log: QUIET })
  const ran: Array<{ sql: string; bindings: readonly unknown[] }> = []
  db.on('query', (query: { sql: string; bindings?: readonly unknown[] }) => {
    if (!TRANSACTION_CONTROL.test(query.sql)) ran.push({ sql: query.sql, bindings: query.bindings ?? [] })
  })
  try {
    const trx = await connect(db, url, name)
    try {
      const builder = applyQueryParams(trx(table), params, settings.map)
      const main = printSql(CLIENT_LABELS[name], builder, io)
      const rows = (await builder.catch(databaseError)) as unknown[]
      io.out(`Queries that ran (${ran.length}, the first is the main query, the others load 'with'):`)
      for (const [index, query] of ran.entries()) io.out(`  ${index + 1}. ${query.sql}\n     Bindings: ${JSON.stringify(query.bindings)}`)
      io.out(`Rows (${rows.length}):`)
      for (const row of rows) io.out(`  ${JSON.stringify(row)}`)
      const dialect = dialectOf(trx.client as Knex.Client)
      const plan = rawRows(dialect, await trx.raw(explainSql(dialect, main.sql), [...main.bindings] as Knex.RawBinding[]).catch(databaseError))
      io.out('Query plan (EXPLAIN of the main query):')
      for (const line of plan) io.out(`  ${planLine(line)}`)
    } finally {
      await trx.rollback()
    }
  } finally {
    await db.destroy()
  }
  io.out('')
}

async function connect(db: Knex, url: string, name: ClientName): Promise<Knex.Transaction> {
  try {
    return await db.transaction(name === 'sqlite' ? {} : { readOnly: true })
  } catch (error) {
    throw new UsageError(`Cannot open the database ${url.replace(/\/\/[^@/]*@/, '//…@')}: ${(error as Error).message}`)
  }
}

function databaseError(error: unknown): never {
  if (error instanceof QueryParamsError) throw error
  throw new UsageError(`The database rejected the query: ${(error as Error).message}`)
}

function planLine(row: Record<string, unknown>): string {
  const text = row['QUERY PLAN'] ?? row['detail']
  return typeof text === 'string' ? text : JSON.stringify(row)
}
