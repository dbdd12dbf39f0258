import { expect } from 'chai'
import { createRentals } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import { applyQueryParams, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { checkRelationMap, introspectRelationMapWithNotices, readSchema } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'

for (const database of testDatabases()) {
  describe(`table kinds of a schema written by others (${database.label})`, function () {
    this.timeout(120_000)
    let own: TestDatabase
    const postgres = database.name === 'postgres'

    before(async () => {
      own = await freshDatabase(database, 'table_kinds')
      await createRentals(own.knex)
      await seedRentals(own.knex)
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('link tables keyed by their two foreign keys are belongsToMany whatever datetime they carry (last_update)', async () => {
      const { map, notices } = await introspectRelationMapWithNotices(own.knex)
      expect(map['film_actor']).to.equal(undefined)
      expect(map['actor']?.relations?.['films']).to.deep.equal({
        type: 'belongsToMany',
        table: 'film',
        pivotTable: 'film_actor',
        foreignPivotKey: 'actor_id',
        relatedPivotKey: 'film_id',
      })
      expect(notices.map((notice) => notice.message)).to.include(
        'film_actor: not exposed, a pivot table linking actor and film (belongsToMany); set exposePivots to expose it',
      )
      const rows = (await applyQueryParams(
        own.knex('actor'),
        parseQueryParams('wheres[0][column]=films.film_id&wheres[0][value]=7&orders[0][column]=actor_id'),
        map,
      )) as Array<{ actor_id: number }>
      const linked = (await own
        .knex('film_actor')
        .where('film_id', 7)
        .orderBy('actor_id')
        .select('actor_id')) as Array<{ actor_id: number }>
      expect(rows.map((row) => row.actor_id)).to.deep.equal(linked.map((row) => Number(row.actor_id)))
      expect(rows.length).to.be.above(0)
    })

    it('a link table carrying data (a weight) is recognised by its key: belongsToMany both ways, and a table for its weight', async () => {
      const links = await freshDatabase(database, 'link_data')
      try {
        const run = (sql: string): Promise<unknown> => links.knex.raw(sql) as Promise<unknown>
        await run('create table post (post_id integer primary key, title varchar(40) not null)')
        await run('create table tag (tag_id integer primary key, name varchar(40) not null)')
        await run(
          'create table post_tag (post_id integer not null references post (post_id), tag_id integer not null ' +
            'references tag (tag_id), weight integer not null, primary key (post_id, tag_id))',
        )
        await links.knex('post').insert([1, 2, 3].map((id) => ({ post_id: id, title: `post ${id}` })))
        await links.knex('tag').insert([1, 2].map((id) => ({ tag_id: id, name: `tag ${id}` })))
        await links.knex('post_tag').insert([
          { post_id: 1, tag_id: 1, weight: 5 },
          { post_id: 1, tag_id: 2, weight: 1 },
          { post_id: 3, tag_id: 2, weight: 9 },
        ])
        const { map, notices } = await introspectRelationMapWithNotices(links.knex)
        expect(map['post']?.relations).to.deep.equal({
          post_tags: { type: 'hasMany', table: 'post_tag', foreignKey: 'post_id' },
          tags: {
            type: 'belongsToMany',
            table: 'tag',
            pivotTable: 'post_tag',
            foreignPivotKey: 'post_id',
            relatedPivotKey: 'tag_id',
          },
        })
        expect(map['post_tag']?.columns).to.deep.equal({
          post_id: { type: 'integer', nullable: false },
          tag_id: { type: 'integer', nullable: false },
          weight: { type: 'integer', nullable: false },
        })
        expect(notices.map((notice) => notice.message)).to.include(
          'post_tag: a pivot table linking post and tag (belongsToMany), kept as a table of its own too for its ' +
            'columns weight',
        )
        expect(await checkRelationMap(links.knex, map)).to.deep.equal([])
        const tagged = await applyQueryParams(
          links.knex('post'),
          parseQueryParams('wheres[0][column]=tags.tag_id&wheres[0][value]=2&orders[0][column]=post_id&with[0]=tags'),
          map,
        )
        expect(
          tagged.map((post) => [post['post_id'], (post['tags'] as Array<{ tag_id: number }>).map((tag) => tag.tag_id)]),
        ).to.deep.equal([
          [1, [1, 2]],
          [3, [2]],
        ])
        const weighted = await applyQueryParams(
          links.knex('post'),
          parseQueryParams(
            'wheres[0][column]=post_tags.weight&wheres[0][operator]=%3E&wheres[0][value]=4&orders[0][column]=post_id' +
              '&with[0]=post_tags&columns[0]=post_id',
          ),
          map,
        )
        expect(weighted).to.deep.equal([
          {
            post_id: 1,
            post_tags: [
              { post_id: 1, tag_id: 1, weight: 5 },
              { post_id: 1, tag_id: 2, weight: 1 },
            ],
          },
          { post_id: 3, post_tags: [{ post_id: 3, tag_id: 2, weight: 9 }] },
        ])
      } finally {
        await dropFreshDatabase(links)
      }
    })

    it('a foreign key that spans the partition key (rental_id, rental_date) gets composite relations both ways', async () => {
      const ts = { sqlite: 'timestamp', postgres: 'timestamp without time zone', mysql: 'datetime' }[database.name]
      await own.knex.raw(
        `create table rental_note (note_id integer primary key, rental_id integer not null, rental_date ${ts} not null, ` +
          'body varchar(40) not null, foreign key (rental_id, rental_date) references rental (rental_id, rental_date))',
      )
      try {
        await own.knex.raw(
          "insert into rental_note (note_id, rental_id, rental_date, body) select rental_id, rental_id, rental_date, 'late' " +
            'from rental where rental_id % 4 = 0',
        )
        const { map, notices } = await introspectRelationMapWithNotices(own.knex)
        expect(map['rental_note']?.relations).to.deep.equal({
          rental: { type: 'belongsTo', table: 'rental', foreignKey: ['rental_id', 'rental_date'], required: true },
        })
        expect(map['rental']?.relations).to.deep.equal({
          film: { type: 'belongsTo', table: 'film', foreignKey: 'film_id', required: true },
          rental_notes: { type: 'hasMany', table: 'rental_note', foreignKey: ['rental_id', 'rental_date'] },
        })
        expect(notices.filter((notice) => notice.kind === 'multi-column-foreign-key')).to.deep.equal([])
        expect(await checkRelationMap(own.knex, map)).to.deep.equal([])
        const noted = (await applyQueryParams(
          own.knex('rental'),
          parseQueryParams('relations_exists[0]=rental_notes&columns[0]=rental_id&limit=200'),
          map,
        )) as Array<{ rental_id: number }>
        expect(noted.map((row) => row.rental_id)).to.deep.equal(
          Array.from({ length: 30 }, (_, index) => 4 * (index + 1)),
        )
      } finally {
        await own.knex.raw('drop table rental_note')
      }
    })

    it(`partitions and INHERITS children are folded into their parent, and a foreign key of a partitioned table is read once${postgres ? '' : ' (plain tables here)'}`, async () => {
      const { map, notices } = await introspectRelationMapWithNotices(own.knex)
      expect(Object.keys(map).sort()).to.deep.equal(['actor', 'category', 'film', 'language', 'payment', 'rental'])
      expect(map['film']?.relations?.['rentals']).to.deep.equal({
        type: 'hasMany',
        table: 'rental',
        foreignKey: 'film_id',
      })
      expect(map['rental']?.relations).to.deep.equal({
        film: { type: 'belongsTo', table: 'film', foreignKey: 'film_id', required: true },
      })
      const folded = notices.filter((notice) => notice.kind === 'partition').map((notice) => notice.message)
      expect(folded).to.deep.equal(
        postgres
          ? [
              'payment: its partitions or INHERITS children (payment_p2024_01, payment_p2024_02) are folded into it, not resources of their own',
              'rental: its partitions or INHERITS children (rental_2024_h1, rental_2024_h2) are folded into it, not resources of their own',
            ]
          : [],
      )
      const rental = (await readSchema(own.knex, { tables: ['rental'] })).tables[0]
      expect(rental?.foreignKeys.map((key) => key.referencedTable)).to.deep.equal(['film'])
      const payments = (await applyQueryParams(own.knex('payment'), parseQueryParams('limit=200'), map)) as unknown[]
      expect(payments).to.have.length(120)
    })

    it('views are read only with views: true, keyed by their first column named like a key; checkRelationMap knows views and partitions', async () => {
      const plain = await introspectRelationMapWithNotices(own.knex)
      expect(plain.map['film_list']).to.equal(undefined)
      const { map, notices } = await introspectRelationMapWithNotices(own.knex, { views: true })
      expect(map['film_list']?.primaryKey).to.equal('fid')
      expect(Object.keys(map['film_list']?.columns ?? {})).to.deep.equal(['fid', 'title', 'rating', 'language'])
      expect(notices.map((notice) => notice.message)).to.include(
        'film_list: a view; its first column named like a key, fid, serves as its key (check that it is unique)',
      )
      const rows = (await applyQueryParams(
        own.knex('film_list'),
        parseQueryParams('wheres[0][column]=fid&wheres[0][value]=3'),
        map,
      )) as Array<{ fid: number }>
      expect(rows.map((row) => row.fid)).to.deep.equal([3])
      expect(await checkRelationMap(own.knex, map)).to.deep.equal([])
      const named: RelationMap = { film_list: { primaryKey: 'fid', columns: { fid: 'integer' } } }
      if (postgres) {
        named['rental_2024_h1'] = {
          primaryKey: ['rental_id', 'rental_date'],
          columns: {
            rental_id: { type: 'integer', nullable: false },
            rental_date: { type: 'datetime', nullable: false },
          },
        }
        named['payment_p2024_01'] = { primaryKey: 'payment_id', columns: { payment_id: 'integer' } }
      }
      expect(await checkRelationMap(own.knex, named)).to.deep.equal([])
    })
  })
}
