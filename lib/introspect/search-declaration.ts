import type { SchemaSearchIndex, SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import type { ColumnSpec, SearchDefinition } from '../relation-map.ts'
import { compareText } from './compare-text.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'
import { describeSearchIndex } from './serving-search-indexes.ts'

/** A full-text index the search can be declared from, with its columns' client names. */
interface Candidate {
  index: SchemaSearchIndex
  clientColumns: string[]
}

const notice = (table: string, message: string): IntrospectionNotice => ({
  kind: 'search-index',
  table,
  message: `${table}: ${message}`,
})

/** Why `index` cannot be declared as the table's search, or `undefined` when it can. */
function whyNot(
  index: SchemaSearchIndex,
  key: readonly string[],
  textName: (column: string) => string | undefined,
): string | undefined {
  if (index.unreadable !== undefined) return 'its columns and configuration could not be read from it'
  if (index.expression !== undefined) {
    const columns = index.columns.map((column) => `coalesce(${column}, '')`).join(` || ' ' || `)
    return (
      `the search's SQL writes to_tsvector('${index.language ?? 'simple'}'::regconfig, ${columns}), and PostgreSQL ` +
      'reads an expression index only for its own expression; create that index (or a GIN index on a generated ' +
      'tsvector column) and declare the search by hand'
    )
  }
  const missing = index.columns.filter((column) => textName(column) === undefined)
  if (missing.length > 0)
    return `${missing.join(', ')} ${missing.length > 1 ? 'are not' : 'is not a'} string column${missing.length > 1 ? 's' : ''} of the map`
  if (index.fts !== undefined && (key.length !== 1 || index.rowid !== key[0]))
    return `its rowid holds ${index.rowid ?? 'rowid'}, not the table's key ${key.join(', ')}`
  return undefined
}

/**
 * The `search` declaration of `table` from its search indexes (`SchemaTable.searchIndexes`), in client names, and a
 * notice (`search-index`) for each index it cannot be declared from or does not use:
 *
 * - `fulltext` from a full-text index whose columns are all string columns of the map: with `language` (its
 *   configuration) and, over a generated `tsvector` column, `vector` on PostgreSQL; with `fts` on SQLite (an
 *   external-content FTS5 table whose rowid is the key). When several could serve, the one over the most columns,
 *   then the first by name; the others are noticed.
 * - Else `contains` over the string columns a pg_trgm index covers (PostgreSQL), in table order.
 * - Not from an index whose columns cannot be read, nor from a PostgreSQL index on another expression than the one
 *   the search writes (`to_tsvector('<configuration>'::regconfig, coalesce(a, '') || ' ' || coalesce(b, ''))`),
 *   which the search would not read.
 *
 * Each FTS5 table (and its shadow tables) is folded into its content table with a notice: the index of its search,
 * not a resource.
 *
 * @example
 * searchDeclaration(posts, ['id'], columns, clientNames, notices) // { columns: ['title', 'body'], mode: 'fulltext', fts: 'posts_fts' }
 */
export function searchDeclaration(
  table: SchemaTable,
  key: readonly string[],
  columns: Readonly<Record<string, ColumnSpec>>,
  clientNames: ReadonlyMap<string, string>,
  notices: IntrospectionNotice[],
): SearchDefinition | undefined {
  const indexes = table.searchIndexes ?? []
  if (indexes.length === 0) return undefined
  const textName = (column: string): string | undefined => {
    const name = clientNames.get(column)
    const spec = name === undefined ? undefined : columns[name]
    const type = typeof spec === 'string' ? spec : spec?.type
    return type === 'string' ? name : undefined
  }
  for (const index of indexes) {
    if (index.fts === undefined) continue
    const shadows = index.shadowTables ?? []
    const also = shadows.length === 0 ? '' : ` and its shadow tables ${shadows.join(', ')}`
    notices.push(
      notice(table.name, `the FTS5 table ${index.fts}${also} folded into it: its search index, not resources`),
    )
  }
  const candidates: Candidate[] = []
  for (const index of indexes.filter((each) => each.mode === 'fulltext')) {
    const why = whyNot(index, key, textName)
    if (why !== undefined)
      notices.push(notice(table.name, `no search declared from ${describeSearchIndex(index)}: ${why}`))
    else candidates.push({ index, clientColumns: index.columns.map((column) => textName(column) ?? column) })
  }
  const trigram = indexes.filter((index) => index.mode === 'contains')
  const [chosen, ...others] = candidates.sort(
    (left, right) =>
      right.index.columns.length - left.index.columns.length || compareText(left.index.name, right.index.name),
  )
  if (chosen !== undefined) {
    for (const other of [...others.map((each) => each.index), ...trigram]) {
      const message = `${describeSearchIndex(other)} also serves a search; the search is declared from ${chosen.index.name}`
      notices.push(notice(table.name, `${message} (full-text first, then the most columns, then by name)`))
    }
    const { language, vector, fts } = chosen.index
    return {
      columns: chosen.clientColumns,
      mode: 'fulltext',
      ...(language === undefined ? {} : { language }),
      ...(vector === undefined ? {} : { vector }),
      ...(fts === undefined ? {} : { fts }),
    }
  }
  const covered = new Set<string>()
  for (const index of trigram) {
    const why =
      index.unreadable !== undefined
        ? 'its columns could not be read from it'
        : index.columns.every((column) => textName(column) === undefined)
          ? 'no column of it is a string column of the map'
          : undefined
    if (why !== undefined)
      notices.push(notice(table.name, `no search declared from ${describeSearchIndex(index)}: ${why}`))
    else for (const column of index.columns) covered.add(column)
  }
  const contains = table.columns
    .map((column) => (covered.has(column.name) ? textName(column.name) : undefined))
    .filter((name): name is string => name !== undefined)
  return contains.length === 0 ? undefined : { columns: contains, mode: 'contains' }
}
