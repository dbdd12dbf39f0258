import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { FULLTEXT_SQL } from '../dialect/fulltext-sql.ts'
import { applyQueryParams } from '../apply/apply-query-params.ts'
import { databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/**
 * A `search_without_index` warning when the plan of `table`'s declared search reads every row of the table even
 * with scans priced out (PostgreSQL), or the search fails for want of its FTS5 table (SQLite), naming the index to
 * create. The search's own SQL is explained, so an index on another expression or configuration does not count.
 * A `contains` search on MySQL/MariaDB or SQLite always gets it: `like '%…%'` has no index there.
 */
export async function checkSearchIndex(db: Knex, map: RelationMap, table: string): Promise<RelationMapProblem[]> {
  const search = map[table]?.search
  if (search === undefined) return []
  const dialect = dialectOf(db.client)
  const sql = FULLTEXT_SQL[dialect.name]
  const own = search.columns
    .filter((column) => !column.includes('.'))
    .map((column) => databaseColumn(map, table, column))
  const create =
    search.mode === 'fulltext'
      ? sql.index(table, own, {
          language: search.language ?? 'simple',
          key: primaryKeyColumns(map, table)[0] ?? 'id',
          ...pick(search),
        })
      : own
          .map((column) => sql.containsIndex(table, column))
          .filter((statement) => statement !== undefined)
          .join('; ')
  let scans: boolean
  try {
    scans = await db.transaction(async (trx) => {
      if (sql.avoidScans !== undefined) await trx.raw(sql.avoidScans)
      const { sql: text, bindings } = applyQueryParams(trx(table), { search: 'search' }, map).toSQL()
      return sql.scans(dialect.explain.lines(await trx.raw(dialect.explain.sql(text), bindings)), table)
    })
  } catch {
    scans = true
  }
  if (!scans) return []
  const fix =
    create === ''
      ? `no index serves like '%…%' on ${dialect.name}; declare mode: 'fulltext' over an index if the table is large`
      : `create the index: ${create}`
  const message = `the ${search.mode} search of ${table} reads every row of ${table}; ${fix}`
  return [relationMapProblem('search_without_index', `${table}.search`, message)]
}

function pick(search: { vector?: string; fts?: string }): { vector?: string; fts?: string } {
  const options: { vector?: string; fts?: string } = {}
  if (search.vector !== undefined) options.vector = search.vector
  if (search.fts !== undefined) options.fts = search.fts
  return options
}
