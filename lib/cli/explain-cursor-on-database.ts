import type { Knex } from 'knex'
import { seekOf } from '../apply/seek-orders.ts'
import { readCursorUnverified } from '../cursor/cursor-token.ts'
import { takePosition } from '../cursor/page-position.ts'
import { isCursorText } from '../dialect/cursor-sql.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { limitOf } from '../knex/builder-state.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import { cursorPageQueries } from '../read/cursor-paginate.ts'
import type { CliIo } from './cli-io.ts'
import { printCursorPage } from './print-cursor-page.ts'

/** A statement that ran, as the `query` event of knex gives it. */
export interface RanQuery {
  sql: string
  bindings: readonly unknown[]
}

/**
 * Runs the keyset page that `cursorPaginate` reads for a request with `cursor`, on the database of `builder` (from
 * `applyQueryParams` inside the explain's read-only transaction): prints the decoded position and the page's
 * statements, runs them as `cursorPaginate` does (the second part only when the first had fewer rows than the
 * page), then the queries that ran (`ran`, filled by the caller's `query` listener), the page's rows and the plan of
 * each part that ran. The cursor's signature is not checked (`explain` has no secret); values this database did not
 * write are the 400 `invalid_cursor` the server answers.
 *
 * @throws {QueryParamsError} for a cursor that is not one; what `fail` throws when the database rejects a statement.
 * @example
 * await explainCursorOnDatabase(trx, applyQueryParams(trx('posts'), params, map), params, 'SQLite', io, ran, fail)
 */
export async function explainCursorOnDatabase(
  trx: Knex.Transaction,
  builder: Knex.QueryBuilder,
  params: QueryParams,
  label: string,
  io: CliIo,
  ran: readonly RanQuery[],
  fail: (error: unknown) => never,
): Promise<void> {
  const seek = seekOf(builder)
  if (seek === undefined) throw new Error('knex-query-params: explain needs a builder returned by applyQueryParams')
  const dialect = dialectOf(builder.client)
  const orders = seek.orders()
  const payload = readCursorUnverified(params.cursor ?? '')
  printCursorPage(label, builder, params, io)
  if (
    payload.values.length !== orders.length ||
    !payload.values.every((value) => value === null || isCursorText(dialect, value))
  )
    throw new QueryParamsError(`Parameter 'cursor' is not a cursor this server issued.`, {
      code: 'invalid_cursor',
      param: 'cursor',
    })

  const limit = limitOf(builder) ?? params.limit ?? APPLY_DEFAULTS.defaultLimit
  const rows: Array<Record<string, unknown>> = []
  const statements: Array<{ sql: string; bindings: readonly unknown[] }> = []
  for (const pageOf of cursorPageQueries(builder, payload, limit + 1)) {
    if (rows.length > limit) break
    const query = pageOf(limit + 1 - rows.length)
    const compiled = query.toSQL()
    statements.push({ sql: compiled.sql, bindings: compiled.bindings })
    rows.push(...((await query.catch(fail)) as Array<Record<string, unknown>>))
  }
  const page = rows.slice(0, limit)
  if (payload.direction === 'prev') page.reverse()
  for (const row of page) takePosition(row, orders, dialect)

  io.out(
    `Queries that ran (${ran.length}: the page${statements.length > 1 ? `'s ${statements.length} parts` : ''}, ` +
      `reading ${limit + 1} rows for a page of ${limit}, then those that load 'with'):`,
  )
  for (const [index, query] of ran.entries())
    io.out(`  ${index + 1}. ${query.sql}\n     Bindings: ${JSON.stringify(query.bindings)}`)
  io.out(`Rows (${page.length}${rows.length > limit ? ', and more beyond them' : ''}):`)
  for (const row of page) io.out(`  ${JSON.stringify(row)}`)
  for (const [index, statement] of statements.entries()) {
    const plan = dialect.explain.lines(
      await trx.raw(dialect.explain.sql(statement.sql), [...statement.bindings] as Knex.RawBinding[]).catch(fail),
    )
    io.out(
      `Query plan (EXPLAIN of the page query${statements.length > 1 ? `, part ${index + 1} of ${statements.length}` : ''}):`,
    )
    for (const line of plan) io.out(`  ${line}`)
  }
  io.out('')
}
