import type { RelationMap, TableDefinition } from '../relation-map.ts'
import { describeValue, didYouMean, isObject, relationMapError } from './relation-map-error.ts'

const SEARCH_KEYS = ['columns', 'mode', 'language', 'vector', 'fts']
const MODES = ['contains', 'fulltext']
/** A name the library writes into SQL text (a text search configuration, an FTS5 table, a column). */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/

/**
 * Checks every table's `search` declaration once the tables are known valid: known keys, a mode, a non-empty list
 * of distinct columns, each an own string column or a `relation.column` path (through relations other than
 * `morphTo`) to a string column a client may filter with `like`, and plain names for `language`, `vector` and `fts`.
 * In `fulltext` mode the related table of a path must declare a `fulltext` search of the columns listed through it.
 *
 * @throws {Error} naming the path to fix, e.g. `posts.search.columns[1]: 'nam' is not a column of users …`.
 */
export function checkSearch(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    if (definition.search !== undefined) checkDeclaration(map, table, definition.search as unknown)
  }
}

function checkDeclaration(map: RelationMap, table: string, search: unknown): void {
  const path = `${table}.search`
  if (!isObject(search)) {
    throw relationMapError(
      path,
      `expected { columns: [...], mode: 'contains' | 'fulltext' }, got ${describeValue(search)}`,
    )
  }
  for (const key of Object.keys(search)) {
    if (SEARCH_KEYS.includes(key)) continue
    throw relationMapError(
      `${path}.${key}`,
      `unknown key${didYouMean(key, SEARCH_KEYS)}; a search takes ${SEARCH_KEYS.join(', ')}`,
    )
  }
  const { columns, mode } = search
  if (typeof mode !== 'string' || !MODES.includes(mode)) {
    throw relationMapError(`${path}.mode`, `expected 'contains' or 'fulltext', got ${describeValue(mode)}`)
  }
  if (!Array.isArray(columns) || columns.length === 0) {
    throw relationMapError(`${path}.columns`, `expected a non-empty list of columns, got ${describeValue(columns)}`)
  }
  columns.forEach((column: unknown, index) => checkColumn(map, table, mode, columns, column, index))
  for (const key of ['language', 'vector', 'fts'] as const) {
    const value = search[key]
    if (value === undefined) continue
    if (mode !== 'fulltext') throw relationMapError(`${path}.${key}`, `only a 'fulltext' search takes ${key}`)
    if (typeof value !== 'string' || !PLAIN_NAME.test(value)) {
      throw relationMapError(
        `${path}.${key}`,
        `expected a plain SQL name (letters, digits, _), got ${describeValue(value)}`,
      )
    }
  }
}

function checkColumn(
  map: RelationMap,
  table: string,
  mode: string,
  columns: unknown[],
  column: unknown,
  index: number,
): void {
  const at = `${table}.search.columns[${index}]`
  if (typeof column !== 'string' || column === '') {
    throw relationMapError(at, `expected a column name or a relation.column path, got ${describeValue(column)}`)
  }
  if (columns.indexOf(column) !== index)
    throw relationMapError(at, `'${column}' is already searched; list each column once`)
  const related = checkColumnPath(map, table, column, at)
  if (mode === 'fulltext' && column.includes('.')) checkRelatedIndex(map, related, columns, column, at)
}

/**
 * A `fulltext` search reads a relation column from the related table's own full-text index: that table must declare
 * a `fulltext` search of exactly the columns listed through the same path (its index options then apply).
 */
function checkRelatedIndex(map: RelationMap, related: string, columns: unknown[], column: string, at: string): void {
  const path = column.slice(0, column.lastIndexOf('.'))
  const listed = columns
    .filter((other): other is string => typeof other === 'string' && other.startsWith(`${path}.`))
    .map((other) => other.slice(path.length + 1))
    .filter((name) => !name.includes('.'))
  const declared = map[related]?.search
  const own = declared?.columns ?? []
  const same = own.length === listed.length && listed.every((name) => own.includes(name))
  if (declared?.mode === 'fulltext' && same) return
  const expected = `search: { columns: [${listed.map((name) => `'${name}'`).join(', ')}], mode: 'fulltext' }`
  throw relationMapError(
    at,
    `'${column}' is a relation column: a fulltext search reads it from ${related}'s own full-text index, so ${related} ` +
      `must declare ${expected} (the columns listed through '${path}')`,
  )
}

/** Checks the path of a searched column and returns the table its column belongs to. */
function checkColumnPath(map: RelationMap, table: string, column: string, at: string): string {
  const segments = column.split('.')
  const name = segments.pop() ?? ''
  let current = table
  for (const segment of segments) {
    const relations = map[current]?.relations ?? {}
    const relation = Object.hasOwn(relations, segment) ? relations[segment] : undefined
    if (relation === undefined) {
      throw relationMapError(
        at,
        `'${segment}' is not a relation of ${current}${didYouMean(segment, Object.keys(relations))}`,
      )
    }
    if (relation.type === 'morphTo')
      throw relationMapError(at, `'${segment}' is a morphTo relation; a search path cannot pass through one`)
    current = relation.table
  }
  const definition: TableDefinition | undefined = map[current]
  const columns = definition?.columns ?? {}
  const spec = Object.hasOwn(columns, name) ? columns[name] : undefined
  if (spec === undefined)
    throw relationMapError(at, `'${name}' is not a column of ${current}${didYouMean(name, Object.keys(columns))}`)
  const type = typeof spec === 'string' ? spec : spec.type
  if (type !== 'string')
    throw relationMapError(at, `'${name}' of ${current} is declared '${type}'; only string columns can be searched`)
  if (
    typeof spec === 'object' &&
    (spec.filterable === false || (spec.operators !== undefined && !spec.operators.includes('like')))
  ) {
    throw relationMapError(
      at,
      `'${name}' of ${current} may not be filtered with 'like'; a searched column must allow it`,
    )
  }
  return current
}
