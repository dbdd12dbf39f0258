import { UsageError, type CliIo } from './cli-io.ts'
import knex from 'knex'
import { applyQueryParams } from '../apply/apply-query-params.ts'
import {
  CLIENT_LABELS,
  CLIENT_NAMES,
  clientOfUrl,
  compileOnlyConfig,
  readOnlyConfig,
  type ClientName,
} from './knex-config-for.ts'
import { APPLY_DEFAULTS, withDefaults } from '../options.ts'
import { parseQueryParams } from '../parse/parse-query-params.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import { validateQueryParams } from '../validate/validate-query-params.ts'
import { describeAggregate, describeEagerLoading } from './describe-eager-loading.ts'
import { explainOnDatabase } from './explain-on-database.ts'
import { openDatabase } from './open-database.ts'
import { printSql } from './print-sql.ts'
import { printCursorPage } from './print-cursor-page.ts'

/**
 * The base table of a request: `table` when given, else the last segment of the URL's path
 * (`users` for `/api/users?limit=2` or `https://example.com/users?…`).
 *
 * @throws {UsageError} when there is neither.
 * @example
 * tableOfRequest('/users?limit=2') // 'users'
 */
export function tableOfRequest(request: string, table?: string): string {
  if (table !== undefined) return table
  const path = /^[a-z][a-z\d+.-]*:\/\//i.test(request)
    ? new URL(request).pathname
    : request.startsWith('/')
      ? (request.split(/[?#]/)[0] ?? '')
      : ''
  const segment = decodeURIComponent(
    path
      .split('/')
      .filter((part) => part !== '')
      .at(-1) ?? '',
  )
  if (segment === '')
    throw new UsageError(`No table in '${request}': give a path such as '/users?…', or --table <name>.`)
  return segment
}

/** What to explain a request with. */
export interface ExplainSettings {
  map: RelationMap
  table?: string
  /** Only this database's SQL. */
  client?: ClientName
  /** A database to run the query on, read-only. */
  db?: string
  strict: boolean
  /** The `context` the map's guards receive (`--context`, `--context-module`). */
  context?: unknown
}

/**
 * Prints what one client request becomes: the parsed params, the SQL and bindings per database, the
 * eager-loading queries, and with `settings.db` the rows, the queries that ran and the query plan. The
 * database is only read: PostgreSQL and MySQL in a `READ ONLY` transaction rolled back at the end,
 * SQLite opened read-only.
 *
 * @throws {QueryParamsError} when the request is rejected; {@link UsageError} for a table the map lacks;
 *   `GuardError` when a guard throws (without `settings.context`, usually because it reads one).
 * @example
 * await explainRequest('/users?limit=2', { map, strict: false }, { out: console.log, err: console.error })
 */
export async function explainRequest(request: string, settings: ExplainSettings, io: CliIo): Promise<void> {
  const table = tableOfRequest(request, settings.table)
  if (!Object.hasOwn(settings.map, table)) {
    throw new UsageError(
      `Table '${table}' is not in the relation map (tables: ${Object.keys(settings.map).join(', ')}).`,
    )
  }
  const params = parseQueryParams(request, { strict: settings.strict })
  io.out(`Request: ${request}`)
  io.out(`Table:   ${table}`)
  io.out(`Params:  ${JSON.stringify(params, null, 2).replace(/\n/g, '\n         ')}`)
  if (settings.db !== undefined) return explainOnUrl(settings.db, table, params, settings, io)

  for (const name of settings.client === undefined ? CLIENT_NAMES : [settings.client]) {
    const db = knex(compileOnlyConfig(name))
    try {
      const query = applyQueryParams(db(table), params, settings.map, { context: settings.context })
      if (params.cursor === undefined) printSql(CLIENT_LABELS[name], query, io)
      else printCursorPage(CLIENT_LABELS[name], query, params, io)
    } finally {
      await db.destroy()
    }
  }
  const plan = validateQueryParams(params, table, settings.map, withDefaults(APPLY_DEFAULTS, {}))
  if (plan.aggregates.length > 0) {
    io.out('Aggregates (with): in the select list as correlated subqueries (above); an order by one joins it grouped:')
    for (const aggregate of plan.aggregates) io.out(`  ${describeAggregate(aggregate)}`)
  }
  if (plan.with.length > 0) {
    io.out(
      'Eager loading (with): after the main query, one query per relation and level, for the keys of the rows found ' +
        '(run with --db to see them):',
    )
    for (const line of describeEagerLoading(plan.with)) io.out(`  ${line}`)
  }
  io.out('')
}

/** Connects to `url` (read-only, see `readOnlyConfig`) and runs {@link explainOnDatabase}. */
async function explainOnUrl(
  url: string,
  table: string,
  params: QueryParams,
  settings: ExplainSettings,
  io: CliIo,
): Promise<void> {
  const name = clientOfUrl(url)
  if (name === undefined)
    throw new UsageError(
      `Unknown database URL '${url}': expected postgres://…, mysql://…, or a SQLite file (sqlite:path, *.sqlite, ` +
        `*.db).`,
    )
  if (settings.client !== undefined && settings.client !== name)
    throw new UsageError(`--client ${settings.client} does not match --db, a ${CLIENT_LABELS[name]} database.`)
  const db = await openDatabase(readOnlyConfig(url), url.replace(/\/\/[^@/]*@/, '//…@'))
  try {
    await explainOnDatabase(db, table, params, settings.map, io, settings.context)
  } finally {
    await db.destroy()
  }
}
