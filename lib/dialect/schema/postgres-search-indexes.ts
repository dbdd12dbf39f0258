import type { SchemaSearchIndex } from './schema-snapshot.ts'
import { readTsvector } from './tsvector-expression.ts'

/** One key of a GIN or GiST index: a column (`column_name`) or an expression (`key`). */
export interface SearchKeyRow {
  table_name: string
  index_name: string
  opclass: string
  column_name: string | null
  column_type: string | null
  /** The key as PostgreSQL prints it: the column's name, or the expression. */
  key: string
  /** A stored generated column's expression. */
  generated: string | null
}

// Valid, not partial (a partial index serves only queries that repeat its predicate), GIN or GiST.
export const SEARCH_KEYS = `select c.relname as table_name, ic.relname as index_name, op.opcname as opclass,
    a.attname as column_name, format_type(a.atttypid, null) as column_type,
    pg_get_indexdef(i.indexrelid, k.position::int, true) as key,
    (select pg_get_expr(d.adbin, d.adrelid) from pg_attrdef d
      where d.adrelid = a.attrelid and d.adnum = a.attnum and a.attgenerated = 's') as generated
  from pg_index i
  join pg_class c on c.oid = i.indrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_class ic on ic.oid = i.indexrelid
  join pg_am am on am.oid = ic.relam
  cross join lateral unnest(i.indkey::int2[], i.indclass::oid[]) with ordinality as k(attnum, opclass, position)
  join pg_opclass op on op.oid = k.opclass
  left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum and k.attnum > 0
  where n.nspname = ? and i.indisvalid and i.indpred is null and am.amname in ('gin', 'gist')
    and k.position <= i.indnkeyatts
  order by c.relname, ic.relname, k.position`

const TRIGRAM = new Set(['gin_trgm_ops', 'gist_trgm_ops'])

function fulltextIndex(name: string, row: SearchKeyRow): SchemaSearchIndex {
  const vector = row.column_name ?? undefined
  const expression = vector === undefined ? row.key : row.generated
  if (expression === null) {
    const unreadable = `${vector ?? ''} is not a generated column: the columns it is filled from are not known`
    return { name, mode: 'fulltext', columns: [], ...(vector === undefined ? {} : { vector }), unreadable }
  }
  const read = readTsvector(expression)
  const where = vector === undefined ? {} : { vector }
  if (read === undefined) return { name, mode: 'fulltext', columns: [], ...where, unreadable: expression }
  if (read.languages.length !== 1) {
    const unreadable = `${expression}: several configurations (${read.languages.join(', ')})`
    return { name, mode: 'fulltext', columns: [], ...where, unreadable }
  }
  const language = read.languages[0] ?? 'simple'
  const form = vector !== undefined || read.searchForm ? {} : { expression }
  return { name, mode: 'fulltext', columns: read.columns, language, ...where, ...form }
}

/**
 * The search indexes of one table from its GIN and GiST keys (see {@link SEARCH_KEYS}), in index-name order: a
 * `tsvector_ops` key on a `to_tsvector` expression or a `tsvector` column is a `fulltext` index (one per key); an
 * index whose keys are all `gin_trgm_ops`/`gist_trgm_ops` is one `contains` index over their columns. Other GIN
 * and GiST indexes (jsonb, arrays, ranges, geometry) are not search indexes.
 */
export function postgresSearchIndexes(rows: readonly SearchKeyRow[]): SchemaSearchIndex[] {
  const byIndex = new Map<string, SearchKeyRow[]>()
  for (const row of rows) byIndex.set(row.index_name, [...(byIndex.get(row.index_name) ?? []), row])
  const indexes: SchemaSearchIndex[] = []
  for (const [name, keys] of byIndex) {
    if (keys.every((key) => TRIGRAM.has(key.opclass))) {
      const expressions = keys.filter((key) => key.column_name === null)
      indexes.push(
        expressions.length === 0
          ? { name, mode: 'contains', columns: keys.map((key) => key.column_name ?? '') }
          : { name, mode: 'contains', columns: [], unreadable: expressions.map((key) => key.key).join(', ') },
      )
      continue
    }
    for (const key of keys) {
      const onVector = key.column_name === null || key.column_type === 'tsvector'
      if (key.opclass === 'tsvector_ops' && onVector) indexes.push(fulltextIndex(name, key))
    }
  }
  return indexes.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
}
