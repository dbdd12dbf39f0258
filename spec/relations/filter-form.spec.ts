import { expect } from 'chai'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/**
 * The form of each relation filter. SQLite chooses per condition: `key in (select …)` when the related
 * condition is selective by declaration (equality or `in` on a primary key or `unique` column, through any
 * hops) or the query reads every match, a correlated `exists` for a page over a broad condition, which
 * stops once the page is full. MariaDB always writes `in`, PostgreSQL `exists`. Equality on a unique column of
 * the related table itself is written key first on every database: `parent.column = (select related.key …)`
 * (`key` below). The rows never depend on it.
 */

const BROAD = 'wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25s%25'
const SELECTIVE = 'wheres[0][column]=author.email&wheres[0][value]=alice@EXAMPLE.com'
const SELECTIVE_TWO_HOPS =
  'wheres[0][column]=posts.author.email&wheres[0][operator]=in&wheres[0][value][0]=alice@EXAMPLE.com&wheres[0][value][1]=eve@example.com'
const MIXED_OR = `${BROAD}&wheres[1][column]=ownedTeam.id&wheres[1][value]=2&wheres[1][boolean]=or`

for (const db of testDatabases()) {
  const form = (sql: string): string[] =>
    [...sql.matchAll(/(?:\b(in|exists)|=) \(select /g)].map((match) => match[1] ?? 'key')
  const expected = (sqlite: string[]): string[] =>
    db.name === 'sqlite' ? sqlite : sqlite.map(() => (db.name === 'mysql' ? 'in' : 'exists'))

  describe(`relation filter form per condition (${db.name})`, () => {
    it('a page over a broad condition (like) is a correlated exists on SQLite, listed when its probe finds few rows; every match is an in list', async () => {
      const paged = applyQuery(db, 'users', `${BROAD}&limit=3`)
      const all = applyQuery(db, 'users', `${BROAD}&orders[0][column]=id`)
      expectSql(db.name, 'relations/filter-form/broad page', paged)
      // SQLite compiles the probed list's two forms in one statement: the listing form, then the walking form.
      expect(form(paged.toSQL().sql)).to.deep.equal(db.name === 'sqlite' ? ['in', 'exists'] : expected(['exists']))
      expect(form(all.toSQL().sql)).to.deep.equal(db.name === 'postgres' ? ['exists'] : ['in'])
      const every = idsOf(await all)
      expect(every.length).to.be.greaterThan(3)
      expect(idsOf(await paged)).to.deep.equal(every.slice(0, 3))
    })

    it('a page over equality on a unique column resolves the key first on every database: user_id = (select id …)', async () => {
      const query = applyQuery(db, 'posts', `${SELECTIVE}&limit=2&orders[0][column]=id&orders[0][direction]=desc`)
      expectSql(db.name, 'relations/filter-form/unique equality page', query)
      expect(form(query.toSQL().sql)).to.deep.equal(['key'])
      const alice = (await db.knex('posts').where('user_id', 1).orderBy('id', 'desc').limit(2).select('id')) as Array<{
        id: number
      }>
      expect(idsOf(await query)).to.deep.equal(alice.map((row) => row.id))
    })

    it('equality on the related key through a pivot is key first; on PostgreSQL only when the page is in the order of the key the pivot references (else in the walking form of the guarded page)', async () => {
      const byKey = applyQuery(db, 'posts', 'wheres[0][column]=tags.id&wheres[0][value]=2&orders[0][column]=id&limit=3')
      const newest = applyQuery(
        db,
        'posts',
        'wheres[0][column]=tags.id&wheres[0][value]=2&orders[0][column]=created_at&orders[0][direction]=desc&limit=3',
      )
      expectSql(db.name, 'relations/filter-form/pivot key first by key', byKey)
      expectSql(db.name, 'relations/filter-form/pivot key first newest', newest)
      const keyFirst = /tag_id\W* = \(select /
      expect(byKey.toSQL().sql).to.match(keyFirst)
      expect(keyFirst.test(newest.clone().toSQL().sql), 'the listing form').to.equal(db.name !== 'postgres')
      expect(newest.toSQL().sql, 'a guarded page: the walking form beside it').to.include('kqp_walk')
      const tagged = db.knex('post_tag').where('tag_id', 2).select('post_id')
      const expectedByKey = (await db
        .knex('posts')
        .whereIn('id', tagged)
        .orderBy('id')
        .limit(3)
        .select('id')) as Array<{ id: number }>
      const expectedNewest = (await db
        .knex('posts')
        .whereIn('id', tagged.clone())
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(3)
        .select('id')) as Array<{ id: number }>
      expect(expectedByKey.length).to.be.greaterThan(1)
      expect(idsOf(await byKey)).to.deep.equal(expectedByKey.map((row) => row.id))
      expect(idsOf(await newest)).to.deep.equal(expectedNewest.map((row) => row.id))
    })

    it('selectivity carries through hops: an in on a unique column two hops away makes both hops in lists', async () => {
      const query = applyQuery(db, 'users', `${SELECTIVE_TWO_HOPS}&limit=5`)
      expectSql(db.name, 'relations/filter-form/unique two hops page', query)
      expect(form(query.toSQL().sql)).to.deep.equal(expected(['in', 'in']))
      const authors = (await db
        .knex('posts')
        .distinct('user_id')
        .whereIn('user_id', [1, 5])
        .orderBy('user_id')) as Array<{ user_id: number }>
      expect(authors.length).to.be.greaterThan(0)
      expect(idsOf(await query)).to.deep.equal(authors.map((row) => Number(row.user_id)))
    })

    it('a path that fans out (tags.posts.images.url) is listed at every hop on SQLite; a to-one path stays correlated (MariaDB joins it)', async () => {
      const fanOut = applyQuery(
        db,
        'posts',
        'wheres[0][column]=tags.posts.images.url&wheres[0][operator]=like&wheres[0][value]=%25cover%25&orders[0][column]=id&limit=3',
      )
      const toOne = applyQuery(
        db,
        'comments',
        'wheres[0][column]=post.author.email&wheres[0][operator]=like&wheres[0][value]=%25a%25&orders[0][column]=id&limit=3',
      )
      expectSql(db.name, 'relations/filter-form/fan-out path page', fanOut)
      expect(form(fanOut.toSQL().sql)).to.deep.equal(expected(['in', 'in', 'in']))
      if (db.name === 'mysql') {
        // Required belongsTo hops to tables without a guard: joined on the page, the joined author tested.
        const { sql } = toOne.toSQL()
        expect(form(sql)).to.deep.equal([])
        expect(sql).to.include('inner join `posts` on `posts`.`id` = `comments`.`post_id` inner join `users` on ')
        expect(sql).to.include('`users`.`email` like ')
      } else expect(form(toOne.toSQL().sql)).to.deep.equal(expected(['exists', 'exists']))
      if (db.name === 'sqlite') {
        const { sql, bindings } = fanOut.toSQL()
        const plan = (await db.knex.raw(`explain query plan ${sql}`, bindings)) as Array<{ detail: string }>
        const details = plan.map((row) => row.detail)
        expect(
          details.filter((detail) => detail.startsWith('CORRELATED')),
          details.join('\n'),
        ).to.deep.equal([])
        expect(details.filter((detail) => /^(REUSE )?LIST SUBQUERY/.test(detail)).length).to.be.at.least(3)
      }
      if (db.name === 'mysql') {
        // MariaDB flattens nested lists into one semi-join: each to-many list under a to-many filter (a tag's posts,
        // a post's images) is a distinct derived table, materialised on its own; the outer list stays flat.
        const { sql, bindings } = fanOut.toSQL()
        expect(sql.match(/in \(select `kqp_list`\.`k` from \(select distinct /g)).to.have.length(2)
        const [plan] = (await db.knex.raw(`explain ${sql}`, bindings)) as [Array<{ select_type: string }>]
        expect(plan.map((row) => row.select_type)).to.include('DERIVED')
      }
      const covered = db
        .knex('images')
        .where('imageable_type', 'Post')
        .where('url', 'like', '%cover%')
        .select('imageable_id')
      const tagged = db.knex('post_tag').whereIn('post_id', covered).select('tag_id')
      const expectedIds = (await db
        .knex('posts')
        .whereIn('id', db.knex('post_tag').whereIn('tag_id', tagged).select('post_id'))
        .orderBy('id')
        .limit(3)
        .select('id')) as Array<{ id: number }>
      expect(expectedIds.length).to.be.greaterThan(1)
      expect(idsOf(await fanOut)).to.deep.equal(expectedIds.map((row) => row.id))
      const authors = db.knex('users').where('email', 'like', '%a%').select('id')
      const expectedComments = (await db
        .knex('comments')
        .whereIn('post_id', db.knex('posts').whereIn('user_id', authors).select('id'))
        .orderBy('id')
        .limit(3)
        .select('id')) as Array<{ id: number }>
      expect(expectedComments.length).to.be.greaterThan(1)
      expect(idsOf(await toOne)).to.deep.equal(expectedComments.map((row) => row.id))
    })

    it('chooses per condition inside one or-group, with the rows of the unpaged query', async () => {
      const paged = applyQuery(db, 'users', `${MIXED_OR}&limit=4`)
      expectSql(db.name, 'relations/filter-form/mixed or page', paged)
      // The page is the union of the or's branches (see `disjunctionPage`; on MariaDB each a walk); the count and
      // clones read the one or-group.
      expect(paged.toSQL().sql).to.include(' union ')
      expect(form(paged.clone().toSQL().sql)).to.deep.equal([...expected(['exists']), 'key'])
      const every = idsOf(await applyQuery(db, 'users', `${MIXED_OR}&orders[0][column]=id`))
      expect(idsOf(await paged)).to.deep.equal(every.slice(0, 4))
    })
  })
}
