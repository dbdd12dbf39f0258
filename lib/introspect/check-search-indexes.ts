import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { FULLTEXT_SQL } from '../dialect/fulltext-sql.ts'
import type { SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { applyQueryParams } from '../apply/apply-query-params.ts'
import { databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import type { RelationMap, SearchDefinition } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'
import { describeSearchIndex, servingSearchIndexes, type OwnSearch } from './serving-search-indexes.ts'

/**
 * A `search_without_index` warning when no index of `table` serves its declared search, naming the index to
 * create (the exact statement for the database). The catalog's search indexes (`SchemaTable.searchIndexes`) decide:
 * a `fulltext` search needs one over its own columns that its SQL reads (see `servesFulltext`: the same expression
 * and configuration on PostgreSQL, the `tsvector` column it declares, its FTS5 table on SQLite, a `FULLTEXT` index
 * of the same columns on MySQL/MariaDB); a `contains` search a pg_trgm index on each own column (none exists on
 * MySQL/MariaDB and SQLite, so it always warns there). Only when an index of the search's mode could not be read
 * back to columns is the search's own SQL explained (scans priced out): the warning then stands if its plan reads
 * every row. The message names the table's full-text indexes that do not serve it; for `contains`, the pg_trgm
 * indexes of the columns that have none. A search of relation columns only
 * is not checked here: each related table's own search is.
 */
export async function checkSearchIndex(
  db: Knex,
  map: RelationMap,
  name: string,
  table: SchemaTable,
): Promise<RelationMapProblem[]> {
  const search = map[name]?.search
  if (search === undefined) return []
  const dialect = dialectOf(db.client)
  const sql = FULLTEXT_SQL[dialect.name]
  const own = search.columns
    .filter((column) => !column.includes('.'))
    .map((column) => databaseColumn(map, name, column))
  if (own.length === 0) return []
  const key = primaryKeyColumns(map, name)
  const wanted: OwnSearch = {
    mode: search.mode,
    columns: own,
    language: search.language ?? 'simple',
    vector: search.vector,
    fts: search.fts,
    key: key.length === 1 ? key[0] : undefined,
  }
  const indexes = table.searchIndexes ?? []
  if (servingSearchIndexes(indexes, wanted).length > 0) return []
  const unread = indexes.some((index) => index.mode === search.mode && index.unreadable !== undefined)
  if (unread && !(await planScans(db, map, name))) return []
  const create =
    search.mode === 'fulltext'
      ? sql.index(name, own, { language: wanted.language, key: key[0] ?? 'id', ...pick(search) })
      : [
          ...new Set(
            own
              .filter((column) => !indexes.some((index) => index.mode === 'contains' && index.columns.includes(column)))
              .flatMap((column) => sql.containsIndex(name, column)?.split('; ') ?? []),
          ),
        ].join('; ')
  const fix =
    create === ''
      ? `no index serves like '%…%' on ${dialect.name}; declare mode: 'fulltext' over an index if the table is large`
      : `create the index: ${create}`
  const others = search.mode === 'fulltext' ? indexes.filter((index) => index.mode === 'fulltext') : []
  const unused =
    others.length === 0 ? '' : ` (${others.map(describeSearchIndex).join('; ')}: not what the search reads)`
  const message = `the ${search.mode} search of ${name} reads every row of ${name}; ${fix}${unused}`
  return [relationMapProblem('search_without_index', `${name}.search`, message)]
}

/** Whether the plan of the table's search reads every row of it, even with scans priced out. */
async function planScans(db: Knex, map: RelationMap, table: string): Promise<boolean> {
  const dialect = dialectOf(db.client)
  const sql = FULLTEXT_SQL[dialect.name]
  try {
    return await db.transaction(async (trx) => {
      if (sql.avoidScans !== undefined) await trx.raw(sql.avoidScans)
      const { sql: text, bindings } = applyQueryParams(trx(table), { search: 'search' }, map).toSQL()
      return sql.scans(dialect.explain.lines(await trx.raw(dialect.explain.sql(text), bindings)), table)
    })
  } catch {
    return true
  }
}

function pick(search: SearchDefinition): { vector?: string; fts?: string } {
  const options: { vector?: string; fts?: string } = {}
  if (search.vector !== undefined) options.vector = search.vector
  if (search.fts !== undefined) options.fts = search.fts
  return options
}
