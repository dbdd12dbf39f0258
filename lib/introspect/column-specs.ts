import type { ColumnDefinition, ColumnSpec, ColumnType } from '../relation-map.ts'
import type { IntrospectionNotice } from './introspection-notice.ts'
import { nameWords, styledName } from './name-words.ts'
import type { Naming } from './relation-map-from-schema-options.ts'
import type { SchemaColumn, SchemaTable } from './schema-snapshot.ts'

/** The allow-list of one table, and the client name of each database column in it. */
export interface TableColumns {
  columns: Record<string, ColumnSpec>
  /** Database column → client name, for the columns in `columns`. */
  clientNames: Map<string, string>
}

/** Whether a column's name, in lower snake_case, matches one of `patterns`. */
export function looksSecret(name: string, patterns: readonly RegExp[]): boolean {
  const snake = nameWords(name).map((word) => word.toLowerCase()).join('_')
  return patterns.some((pattern) => pattern.test(snake))
}

const INEXACT: Readonly<Partial<Record<ColumnType, ColumnType>>> = { bigint: 'integer', decimal: 'number' }

function columnSpec(column: SchemaColumn, clientName: string, table: SchemaTable, key: readonly string[], exactNumbers: boolean): ColumnSpec | undefined {
  if (column.type === undefined) return undefined
  const definition: ColumnDefinition = { type: exactNumbers ? column.type : (INEXACT[column.type] ?? column.type) }
  if (clientName !== column.name) definition.column = column.name
  const soleKey = key.length === 1 && key[0] === column.name
  if (!soleKey) {
    if (!column.nullable) definition.nullable = false
    if (table.uniques.some((unique) => unique.length === 1 && unique[0] === column.name)) definition.unique = true
  }
  return Object.keys(definition).length === 1 ? definition.type : definition
}

/**
 * The allow-list of `table`: every column with a map type and a name that does not look secret, under its
 * client name in `naming` style (with `column:` naming the database column where the two differ),
 * `nullable: false` when NOT NULL, `unique: true` for a single-column unique constraint. The sole key column
 * is declared by its type alone (it is NOT NULL and unique by being the key). With `exactNumbers: false`,
 * `bigint` columns are declared `integer` and `decimal` ones `number`. Two columns that would share a
 * client name: the one already spelled that way keeps it, the other keeps its database name (reported).
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
  exactNumbers = true,
): TableColumns {
  const kept: SchemaColumn[] = []
  for (const column of table.columns) {
    const at = `${table.name}.${column.name}`
    if (looksSecret(column.name, secret)) {
      notices.push({ kind: 'secret-column', table: table.name, column: column.name, message: `${at}: left out, its name looks secret` })
    } else if (column.type === undefined) {
      notices.push({ kind: 'unmapped-column', table: table.name, column: column.name, message: `${at}: left out, no map type holds its database type '${column.dataType}'` })
    } else {
      kept.push(column)
    }
  }
  const clientNames = new Map<string, string>()
  const taken = new Set(kept.filter((column) => styledName(column.name, naming) === column.name).map((column) => column.name))
  for (const column of kept) {
    const wanted = styledName(column.name, naming)
    if (wanted === column.name) {
      clientNames.set(column.name, wanted)
      continue
    }
    let name = taken.has(wanted) ? column.name : wanted
    for (let suffix = 2; taken.has(name); suffix++) name = `${wanted}_${suffix}`
    if (name !== wanted) {
      notices.push({ kind: 'column-name-clash', table: table.name, column: column.name, message: `${table.name}.${column.name}: declared as '${name}', since '${wanted}' names another column` })
    }
    taken.add(name)
    clientNames.set(column.name, name)
  }
  const columns: Record<string, ColumnSpec> = {}
  for (const column of kept) {
    const clientName = clientNames.get(column.name) ?? column.name
    const spec = columnSpec(column, clientName, table, key, exactNumbers)
    if (spec !== undefined) columns[clientName] = spec
  }
  return { columns, clientNames }
}
