import { expect } from 'chai'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import { introspectRelationMapWithNotices } from '../../lib/introspect/introspect-relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { CATALOG_MAP, catalogCamelMap, withCatalog } from './support/catalog-maps.ts'

for (const database of testDatabases()) {
  describe(`introspectRelationMap on the catalog schema (${database.label})`, function () {
    this.timeout(60_000)

    it('gives the exact expected map and notices, by default and with naming camel and exposed pivots', async () => {
      await withCatalog(database, async (catalog) => {
        const { map, notices } = await introspectRelationMapWithNotices(catalog.knex)
        expect(map).to.deep.equal(CATALOG_MAP)
        expect(notices.map((notice) => `${notice.kind} ${notice.table}.${notice.column ?? ''}`)).to.deep.equal([
          'secret-column app_user.password_hash',
          'secret-column app_user.api_token',
          'unmapped-column artist_profile.available_from',
          'pivot-table playlist_track.',
        ])
        const camel = await introspectRelationMapWithNotices(catalog.knex, { naming: 'camel', exposePivots: true })
        expect(camel.map).to.deep.equal(catalogCamelMap())
        expect(camel.notices.map((notice) => notice.kind)).to.deep.equal([
          'secret-column',
          'secret-column',
          'unmapped-column',
        ])
        expect(await checkRelationMap(catalog.knex, map)).to.deep.equal([])
        expect(await checkRelationMap(catalog.knex, camel.map)).to.deep.equal([])
      })
    })
  })
}
