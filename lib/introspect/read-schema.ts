import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { catalogReaderOf } from '../dialect/schema/catalog-reader-of.ts'
import { sortTables } from '../dialect/schema/sort-table.ts'
import type { SchemaTable, SchemaSnapshot } from '../dialect/schema/schema-snapshot.ts'
import type { ReadSchemaOptions } from './options.ts'
import { readSchemas, schemaList } from './read-schemas.ts'

/**
 * The tables of `schema` (default: the connection's own) that `includes` accepts, as a snapshot gives them; with
 * `kinds`, views (`'views'`), or views, partitions and `INHERITS` children (`'every'`) too.
 */
export async function readCatalog(
  db: Knex,
  schema: string | undefined,
  includes: (table: string) => boolean,
  kinds?: 'views' | 'every',
): Promise<SchemaTable[]> {
  const scope = kinds === undefined ? { schema, includes } : { schema, includes, kinds }
  return sortTables(await catalogReaderOf(db.client).read(db, scope))
}

const MIGRATION_TABLES = /^knex_migrations/

/**
 * Reads the live schema of `db`'s database from its catalog: every table (or `options.tables`, minus
 * `options.exclude`; knex's migration tables only when asked for) with its columns (database type, the map
 * type that holds it, nullability), primary key (composite too), unique constraints and unique indexes
 * (not partial, not on expressions), the indexes that can serve an order (B-trees, with the primary key) and
 * foreign keys, with whether the database enforces each. On SQLite,
 * PostgreSQL (pg, PGlite) and MySQL/MariaDB. It only reads the catalog, never a table's rows.
 *
 * @example
 * const snapshot = await readSchema(db, { exclude: ['sessions'] })
 * snapshot.tables.find((table) => table.name === 'Artist')?.primaryKey // ['ArtistId']
 */
export async function readSchema(db: Knex, options: ReadSchemaOptions = {}): Promise<SchemaSnapshot> {
  const { tables, exclude = [], schema } = options
  if (options.dialect !== undefined) dialectOf(db.client, options.dialect)
  const wanted = tables === undefined ? undefined : new Set(tables)
  const excluded = new Set(exclude)
  const includes = (table: string): boolean =>
    !excluded.has(table) && (wanted === undefined ? !MIGRATION_TABLES.test(table) : wanted.has(table))
  const read = await readSchemas(db, schemaList(schema), includes, options.views === true ? 'views' : undefined)
  if (wanted !== undefined) {
    const found = new Set(read.map((table) => table.name))
    const missing = [...wanted].filter((table) => !found.has(table) && !excluded.has(table))
    if (missing.length > 0)
      throw new Error(`readSchema: no table ${missing.map((table) => `'${table}'`).join(', ')} in the database`)
  }
  return { tables: read }
}
