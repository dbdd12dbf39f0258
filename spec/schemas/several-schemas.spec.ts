import { expect } from 'chai'
import { createRentals } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMapWithNotices } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

for (const database of testDatabases().filter((each) => each.name !== 'sqlite')) {
  describe(`several schemas (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase
    let second: TestDatabase | undefined
    let analytics = 'analytics'

    before(async () => {
      own = await freshDatabase(database, 'schemas')
      await createRentals(own.knex)
      await seedRentals(own.knex)
      if (database.name === 'mysql') {
        // MySQL's schemas are databases: a second database of this run on the same server.
        second = await freshDatabase(database, 'schemas_b')
        analytics = second.server?.name ?? ''
        await second.knex.destroy()
      } else {
        await own.knex.raw('create schema analytics')
      }
      const film = database.name === 'mysql' ? `\`${own.server?.name ?? ''}\`.film` : 'public.film'
      await own.knex.raw(
        `create table ${analytics}.film_stat (film_id integer primary key references ${film} (film_id), views integer not null)`,
      )
      await own.knex.raw(`insert into ${analytics}.film_stat values (1, 10), (2, 250), (3, 40)`)
    })

    after(async () => {
      await own.knex.raw(`drop table if exists ${analytics}.film_stat`)
      if (database.name !== 'mysql') await own.knex.raw('drop schema if exists analytics')
      await dropFreshDatabase(own)
      if (second !== undefined) await dropFreshDatabase(second)
    })

    it('introspect reads several schemas, qualifies the others, keeps the foreign keys between them; checkRelationMap checks each in its schema', async () => {
      const first = database.name === 'mysql' ? (own.server?.name ?? '') : 'public'
      const { map } = await introspectRelationMapWithNotices(own.knex, { schema: `${first},${analytics}` })
      const stat = `${analytics}.film_stat`
      expect(map[stat]).to.deep.equal({
        primaryKey: 'film_id',
        columns: { film_id: 'integer', views: { type: 'integer', nullable: false } },
        relations: { film: { type: 'belongsTo', table: 'film', foreignKey: 'film_id', required: true } },
      })
      const inverse = Object.entries(map['film']?.relations ?? {}).filter(
        ([, relation]) => 'table' in relation && relation.table === stat,
      )
      // Named after the qualified table, with the schema: `analytics_film_stat`.
      const name = `${analytics}_film_stat`
      expect(inverse).to.deep.equal([[name, { type: 'hasOne', table: stat, foreignKey: 'film_id' }]])
      expect(await checkRelationMap(own.knex, map)).to.deep.equal([])
      const rows = await applyQueryParams(
        own.knex(stat),
        parseQueryParams(
          'wheres[0][column]=film.film_id&wheres[0][operator]=in&wheres[0][value][0]=2&wheres[0][value][1]=3&orders[0][column]=film_id&columns[0]=film_id&columns[1]=views',
        ),
        map,
      )
      expect(rows).to.deep.equal([
        { film_id: 2, views: 250 },
        { film_id: 3, views: 40 },
      ])
      const films = await applyQueryParams(
        own.knex('film'),
        parseQueryParams(
          `wheres[0][column]=${name}.views&wheres[0][operator]=%3E&wheres[0][value]=20&with[0]=${name}&columns[0]=film_id&orders[0][column]=film_id`,
        ),
        map,
      )
      expect(films).to.deep.equal([
        { film_id: 2, [name]: { film_id: 2, views: 250 } },
        { film_id: 3, [name]: { film_id: 3, views: 40 } },
      ])
    })
  })
}
