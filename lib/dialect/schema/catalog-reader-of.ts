import type { Knex } from 'knex'
import { dialectOf } from '../dialect-of.ts'
import type { CatalogReader } from './catalog-reader.ts'
import { mysqlCatalog } from './mysql-catalog.ts'
import { postgresCatalog } from './postgres-catalog.ts'
import { sqliteCatalog } from './sqlite-catalog.ts'

const readers = { sqlite: sqliteCatalog, postgres: postgresCatalog, mysql: mysqlCatalog } as const

/** The {@link CatalogReader} of a knex client's database. */
export function catalogReaderOf(client: Knex.Client): CatalogReader {
  return readers[dialectOf(client).name]
}
