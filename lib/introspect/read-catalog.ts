import type { Knex } from 'knex'
import { catalogReaderOf } from '../dialect/schema/catalog-reader-of.ts'
import { sortTables } from '../dialect/schema/sort-table.ts'
import type { SchemaTable } from './schema-snapshot.ts'

/** The tables of `schema` (default: the connection's own) that `includes` accepts, as a snapshot gives them. */
export async function readCatalog(db: Knex, schema: string | undefined, includes: (table: string) => boolean): Promise<SchemaTable[]> {
  return sortTables(await catalogReaderOf(db.client).read(db, { schema, includes }))
}
