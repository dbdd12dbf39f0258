import { columnSpellings } from '../map/columns.ts'
import type { ColumnDefinition, ColumnSpec, ColumnType } from '../relation-map.ts'
import type { ColumnPatterns } from './column-patterns.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'
import { nameWords, styledName } from './name-words.ts'
import { textDeclarations } from './text-declarations.ts'
import type { Naming } from './options.ts'
import type { SchemaColumn, SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/** The allow-list of one table, and the client name of each database column in it. */
export interface TableColumns {
  columns: Record<string, ColumnSpec>
  /** Database column → client name, for the columns in `columns`. */
  clientNames: Map<string, string>
}

/** Whether a column's name, in lower snake_case, matches one of `patterns`. */
export function looksSecret(name: string, patterns: readonly RegExp[]): boolean {
  const snake = nameWords(name)
    .map((word) => word.toLowerCase())
    .join('_')
  return patterns.some((pattern) => pattern.test(snake))
}

const INEXACT: Readonly<Partial<Record<ColumnType, ColumnType>>> = { bigint: 'integer', decimal: 'number' }

function columnSpec(
  column: SchemaColumn,
  clientName: string,
  table: SchemaTable,
  key: readonly string[],
  exactNumbers: boolean,
): ColumnSpec | undefined {
  if (column.type === undefined) return undefined
  const definition: ColumnDefinition = { type: exactNumbers ? column.type : (INEXACT[column.type] ?? column.type) }
  if (clientName !== column.name) definition.column = column.name
  if (column.precision === 'single' && definition.type === 'number') definition.precision = 'single'
  if (column.type === 'string') Object.assign(definition, textDeclarations(column))
  const soleKey = key.length === 1 && key[0] === column.name
  if (!soleKey) {
    if (!column.nullable) definition.nullable = false
    if (table.uniques.some((unique) => unique.length === 1 && unique[0] === column.name)) definition.unique = true
  }
  return Object.keys(definition).length === 1 ? definition.type : definition
}

/**
 * The allow-list of `table`: every column with a map type, a name that does not look secret and that
 * `excluded` does not match (a primary-key column is kept, and reported), under its
 * client name in `naming` style (with `column:` naming the database column where the two differ),
 * `nullable: false` when NOT NULL, `unique: true` for a single-column unique constraint. The sole key column
 * is declared by its type alone (it is NOT NULL and unique by being the key). With `exactNumbers: false`,
 * `bigint` columns are declared `integer` and `decimal` ones `number`. Two columns that would share a
 * client name, or its snake_case or camelCase spelling: the one already spelled that way keeps it, the other
 * keeps its database name, else gets a numbered name (`createdAt_2`), reported.
 *
 * @example
 * tableColumns(artists, ['ArtistId'], 'camel', DEFAULT_SECRET_COLUMNS, notices).columns // { artistId: { type: 'integer', column: 'ArtistId' }, name: … }
 */
export function tableColumns(
  table: SchemaTable,
  key: readonly string[],
  naming: Naming,
  secret: readonly RegExp[],
  notices: IntrospectionNotice[],
  excluded: ColumnPatterns = () => undefined,
  exactNumbers = true,
): TableColumns {
  const kept: SchemaColumn[] = []
  for (const column of table.columns) {
    const at = `${table.name}.${column.name}`
    const pattern = excluded(table.name, column.name)
    if (pattern !== undefined && key.includes(column.name)) {
      notices.push({
        kind: 'excluded-column',
        table: table.name,
        column: column.name,
        message: `${at}: kept although it matches '${pattern}': it is (part of) the primary key`,
      })
    } else if (pattern !== undefined) {
      notices.push({
        kind: 'excluded-column',
        table: table.name,
        column: column.name,
        message: `${at}: left out, excluded by '${pattern}'`,
      })
      continue
    }
    if (looksSecret(column.name, secret)) {
      notices.push({
        kind: 'secret-column',
        table: table.name,
        column: column.name,
        message: `${at}: left out, its name looks secret`,
      })
    } else if (column.type === undefined) {
      notices.push({
        kind: 'unmapped-column',
        table: table.name,
        column: column.name,
        message: `${at}: left out, no map type holds its database type '${column.dataType}'`,
      })
    } else {
      kept.push(column)
    }
  }
  const clientNames = new Map<string, string>()
  // A client may send a column in snake_case or camelCase, so names are taken with both their spellings.
  const spellings = new Set<string>()
  const free = (name: string): boolean => ![name, ...columnSpellings(name)].some((spelling) => spellings.has(spelling))
  const claim = (column: SchemaColumn, name: string): void => {
    for (const spelling of [name, ...columnSpellings(name)]) spellings.add(spelling)
    clientNames.set(column.name, name)
  }
  for (const column of kept) {
    if (styledName(column.name, naming) === column.name && free(column.name)) claim(column, column.name)
  }
  for (const column of kept) {
    if (clientNames.has(column.name)) continue
    const wanted = styledName(column.name, naming)
    let name = free(wanted) ? wanted : free(column.name) ? column.name : undefined
    for (let suffix = 2; name === undefined; suffix++) if (free(`${wanted}_${suffix}`)) name = `${wanted}_${suffix}`
    if (name !== wanted) {
      notices.push({
        kind: 'column-name-clash',
        table: table.name,
        column: column.name,
        message: `${table.name}.${column.name}: declared as '${name}', since '${wanted}' names another column`,
      })
    }
    claim(column, name)
  }
  const columns: Record<string, ColumnSpec> = {}
  for (const column of kept) {
    const clientName = clientNames.get(column.name) ?? column.name
    const spec = columnSpec(column, clientName, table, key, exactNumbers)
    if (spec !== undefined) columns[clientName] = spec
  }
  return { columns, clientNames }
}
