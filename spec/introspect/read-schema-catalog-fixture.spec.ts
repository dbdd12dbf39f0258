import { expect } from 'chai'
import { CATALOG_ROWS } from '../../fixtures/catalog/seed-catalog.ts'
import { CATALOG_TABLES } from '../../fixtures/catalog/catalog-tables.ts'
import { createCatalog } from '../../fixtures/catalog/create-catalog.ts'
import { dropCatalog } from '../../fixtures/catalog/drop-catalog.ts'
import { seedCatalog } from '../../fixtures/catalog/seed-catalog.ts'
import { listTables } from '../../fixtures/list-tables.ts'
import { testDatabases } from '../support/databases.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'

for (const database of testDatabases()) {
  describe(`the catalog fixture (${database.label})`, function () {
    this.timeout(60_000)

    it('creates, seeds and drops the catalog in a database of its own', async () => {
      const fresh = await freshDatabase(database, 'catalog')
      try {
        await createCatalog(fresh.knex)
        expect(await listTables(fresh.knex)).to.deep.equal([...CATALOG_TABLES].sort())
        await seedCatalog(fresh.knex)
        for (const table of CATALOG_TABLES) {
          const [row] = await fresh.knex(table).count({ count: '*' })
          expect(Number(row?.count), table).to.equal(CATALOG_ROWS[table].length)
        }
        const unnamed = await fresh.knex('Track').whereNull('AlbumId').pluck('Name')
        expect(unnamed).to.deep.equal(['Untitled demo'])
        await dropCatalog(fresh.knex)
        expect(await listTables(fresh.knex)).to.deep.equal([])
      } finally {
        await dropFreshDatabase(fresh)
      }
    })
  })
}
