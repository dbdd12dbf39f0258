import type { Knex } from 'knex'
import { readCursorUnverified } from '../cursor/cursor-token.ts'
import { isCursorText } from '../dialect/cursor-sql.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { cursorPageQueries } from '../read/cursor-paginate.ts'
import { limitOf } from '../knex/builder-state.ts'
import { APPLY_DEFAULTS } from '../options.ts'
import type { QueryParams } from '../query-params.ts'
import type { CliIo } from './cli-io.ts'
import { printSql } from './print-sql.ts'

/**
 * Prints the keyset page a request with `cursor` reads under `label`: the cursor's decoded position (its signature
 * is not checked: `explain` has no secret) and each statement of the page, with the seek condition.
 *
 * @example
 * printCursorPage('PostgreSQL', applyQueryParams(db('posts'), params, map), params, io)
 */
export function printCursorPage(label: string, query: Knex.QueryBuilder, params: QueryParams, io: CliIo): void {
  const payload = readCursorUnverified(params.cursor ?? '')
  const dialect = dialectOf(query.client)
  io.out(`${label}:`)
  io.out(
    `  Cursor:   the ${payload.direction === 'next' ? 'rows after' : 'rows before'} ` +
      `${JSON.stringify(payload.values)}, ` +
      `issued ${new Date(payload.issuedAt * 1000).toISOString()} (signature not checked: explain has no secret)`,
  )
  if (!payload.values.every((value) => value === null || isCursorText(dialect, value))) {
    io.out(`  (the position's values were not read from this database)`)
    return
  }
  const limit = (limitOf(query) ?? params.limit ?? APPLY_DEFAULTS.defaultLimit) + 1
  cursorPageQueries(query, payload, limit).forEach((page, index, pages) => {
    printSql(
      pages.length === 1
        ? '  Page'
        : `  Page, part ${index + 1} of ${pages.length}` +
            (index > 0 ? ' (when part 1 has fewer rows than the page)' : ''),
      page(),
      {
        ...io,
        out: (line) => io.out(`  ${line}`),
      },
    )
  })
}
