import type { Knex } from 'knex'
import { applyQueryParams } from '../apply/apply-query-params.ts'
import { guardedFormStatements } from '../apply/page-rewrite.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { DIALECT_LABELS } from './knex-config-for.ts'
import { GuardError } from '../guard/guard-error.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import type { QueryParams } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import { printSql } from './print-sql.ts'
import { oneLine, UsageError, type CliIo } from './cli-io.ts'
import { explainCursorOnDatabase } from './explain-cursor-on-database.ts'

const TRANSACTION_CONTROL = /^(begin|set transaction|start transaction|commit|rollback)\b/i

/**
 * Runs `params` on `table` of `db` (the guards receive `context`) and prints its SQL, the queries that really ran
 * (the main query, then
 * the eager-loading ones), the rows, and the plan of the main query. Everything runs in one transaction
 * that is rolled back, `READ ONLY` where the database has it (`Dialect.explainTransaction`; open a SQLite file
 * read-only): a scope or anything else that tries to write fails.
 *
 * @throws {QueryParamsError} when the request is rejected; {@link UsageError} when the database rejects the query.
 * @example
 * await explainOnDatabase(db, 'users', parseQueryParams('limit=2'), relationMap, io)
 */
export async function explainOnDatabase(
  db: Knex,
  table: string,
  params: QueryParams,
  map: RelationMap,
  io: CliIo,
  context?: unknown,
): Promise<void> {
  const dialect = dialectOf(db.client as Knex.Client)
  const ran: Array<{ sql: string; bindings: readonly unknown[] }> = []
  const record = (query: { sql: string; bindings?: readonly unknown[] }): void => {
    if (!TRANSACTION_CONTROL.test(query.sql)) ran.push({ sql: query.sql, bindings: query.bindings ?? [] })
  }
  db.on('query', record)
  const trx = await db.transaction(dialect.explainTransaction).catch(databaseError)
  try {
    const builder = applyQueryParams(trx(table), params, map, { context })
    if (params.cursor !== undefined)
      return await explainCursorOnDatabase(trx, builder, params, DIALECT_LABELS[dialect.name], io, ran, databaseError)
    let main = printSql(DIALECT_LABELS[dialect.name], builder, io)
    const forms = guardedFormStatements(builder)
    if (forms !== undefined)
      io.out(
        '  (a frequency-guarded page: this one statement holds both forms, as .stream() reads it; awaited, a probe ' +
          'runs first, then the page in the one form it chose)',
      )
    const rows = (await builder.catch(databaseError)) as unknown[]
    const form =
      forms === undefined
        ? undefined
        : (['list', 'walk'] as const).find((name) => ran.some((query) => query.sql === forms[name].toNative().sql))
    if (forms === undefined || form === undefined)
      io.out(`Queries that ran (${ran.length}, the first is the main query, the others load 'with'):`)
    else {
      main = forms[form]
      io.out(
        `Queries that ran (${ran.length}: the probe of the guarded page, then the page in its ` +
          `${form === 'walk' ? 'walking' : 'listing'} form, then those that load 'with'):`,
      )
    }
    for (const [index, query] of ran.entries())
      io.out(`  ${index + 1}. ${query.sql}\n     Bindings: ${JSON.stringify(query.bindings)}`)
    io.out(`Rows (${rows.length}):`)
    for (const row of rows) io.out(`  ${JSON.stringify(row)}`)
    const plan = dialect.explain.lines(
      await trx.raw(dialect.explain.sql(main.sql), [...main.bindings] as Knex.RawBinding[]).catch(databaseError),
    )
    io.out(`Query plan (EXPLAIN of the ${form === undefined ? 'main query' : 'page query that ran'}):`)
    for (const line of plan) io.out(`  ${line}`)
  } finally {
    db.off('query', record)
    await trx.rollback().catch(() => undefined)
  }
  io.out('')
}

function databaseError(error: unknown): never {
  if (error instanceof QueryParamsError || error instanceof GuardError) throw error
  throw new UsageError(`The database rejected the query: ${oneLine(error)}`)
}
