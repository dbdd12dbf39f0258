import type { Knex } from 'knex'
import type { SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { catalogReaderOf } from '../dialect/schema/catalog-reader-of.ts'
import { readCatalog } from './read-schema.ts'

/** `a, b` → `['a', 'b']`; `undefined` (the connection's own schema) → `[undefined]`. */
export function schemaList(schema: string | undefined): Array<string | undefined> {
  if (schema === undefined) return [undefined]
  const names = schema
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  return names.length === 0 ? [undefined] : names
}

/**
 * The tables of several schemas (PostgreSQL schemas, MySQL databases, SQLite attached databases) as one list: the
 * first schema's tables by their own names, every other schema's as `schema.table`, which is also how a knex
 * query and the map name them. A foreign key names its referenced table the same way (`users` for a table of
 * the first schema, `analytics.reports` for another's). `includes` sees the names so given.
 */
export async function readSchemas(
  db: Knex,
  schemas: ReadonlyArray<string | undefined>,
  includes: (table: string) => boolean,
  kinds?: 'views' | 'every',
): Promise<SchemaTable[]> {
  const [named, ...others] = schemas
  if (others.length === 0) return readCatalog(db, named, includes, kinds)
  const first = named ?? (await catalogReaderOf(db.client).defaultSchema(db))
  const qualified = (schema: string | undefined, table: string): string =>
    schema === first || schema === undefined ? table : `${schema}.${table}`
  const tables: SchemaTable[] = []
  for (const schema of [first, ...others]) {
    const read = await readCatalog(db, schema, (name) => includes(qualified(schema, name)), kinds)
    for (const table of read) {
      tables.push({
        ...table,
        name: qualified(schema, table.name),
        foreignKeys: table.foreignKeys.map((key) => {
          const dot = key.referencedTable.indexOf('.')
          const owner = dot === -1 ? schema : key.referencedTable.slice(0, dot)
          return { ...key, referencedTable: qualified(owner, key.referencedTable.slice(dot + 1)) }
        }),
      })
    }
  }
  return tables.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))
}

/**
 * The schemas a map's tables live in: the default (`schema`, or the connection's own) for bare names, and each
 * `schema.` prefix of a qualified key (`analytics.reports`).
 */
export function schemasOf(tables: Iterable<string>, schema: string | undefined): Array<string | undefined> {
  const found: Array<string | undefined> = [schema]
  for (const table of tables) {
    const dot = table.indexOf('.')
    const prefix = dot === -1 ? undefined : table.slice(0, dot)
    if (prefix !== undefined && !found.includes(prefix)) found.push(prefix)
  }
  return found
}
