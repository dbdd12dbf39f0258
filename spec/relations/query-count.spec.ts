import { expect } from 'chai'
import { applyQuery, rowsOf } from '../support/apply-query.ts'
import { countQueries, type QueryEvent } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

const total = (rows: ReadonlyArray<Record<string, unknown>>, relation: string): number =>
  rows.reduce((sum, row) => sum + (row[relation] as unknown[]).length, 0)

const usesIn = (query: QueryEvent): boolean => / in \(/i.test(query.sql)

for (const db of testDatabases()) {
  describe(`with: batched eager loading, no N+1 (counted with knex's query event) (${db.name})`, () => {
    it('with[0]=posts.comments on every user: 3 queries (users, posts, comments)', async () => {
      const { result, queries } = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts.comments'))
      const users = rowsOf(result)
      expect(users).to.have.length(12)
      expect(total(users, 'posts')).to.equal(24)
      const comments = users
        .flatMap((user) => rowsOf(user.posts))
        .reduce((sum, post) => sum + rowsOf(post.comments).length, 0)
      expect(comments).to.equal(40)
      expect(queries).to.have.length(3)
      expect(queries.slice(1).every(usesIn)).to.equal(true)
    })

    it('the count does not grow with the rows: 2 users or 12 users, the same 3 queries', async () => {
      const few = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts.comments&limit=2'))
      const all = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts.comments'))
      expect(few.queries).to.have.length(3)
      expect(all.queries).to.have.length(3)
    })

    it('binds each distinct parent key once (belongsTo team: 3 team ids for 12 users)', async () => {
      const { queries } = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=team'))
      expect(queries).to.have.length(2)
      // The three keys, then the row limit (the rows left of maxEagerRows, plus one).
      expect((queries[1]?.bindings ?? []).map(Number)).to.have.members([1, 2, 3, 10_001])
    })

    it('* on users: one query per relation (1 + 6)', async () => {
      const { queries } = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=*'))
      expect(queries).to.have.length(7)
    })

    it('belongsToMany: one query joining the pivot', async () => {
      const { result, queries } = await countQueries(db.knex, () => applyQuery(db, 'posts', 'with[0]=tags'))
      expect(total(rowsOf(result), 'tags')).to.equal(34)
      expect(queries).to.have.length(2)
      expect(queries[1]?.sql).to.match(/post_tag/)
    })

    it('morphTo: one query per target type (users, posts)', async () => {
      const { queries } = await countQueries(db.knex, () => applyQuery(db, 'images', 'with[0]=imageable'))
      expect(queries).to.have.length(3)
    })

    it('nested posts.tags and posts.* share the posts query', async () => {
      const nested = await countQueries(db.knex, () =>
        applyQuery(db, 'users', 'with[0]=posts.tags&with[1]=posts.comments'),
      )
      expect(nested.queries).to.have.length(4)
      const star = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts.*'))
      expect(star.queries).to.have.length(6)
    })

    it('.first() with relations: 2 queries; an empty result: 1 query', async () => {
      const first = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts').first())
      expect(first.queries).to.have.length(2)
      const empty = await countQueries(db.knex, () =>
        applyQuery(db, 'users', 'with[0]=posts.comments&wheres[0][column]=id&wheres[0][value]=999'),
      )
      expect(empty.queries).to.have.length(1)
    })
  })
}
