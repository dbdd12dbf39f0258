import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

const VIEWS_OVER_500_OR_RATED_4_5 =
  'wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=500&wheres[0][boolean]=and' +
  '&wheres[1][column]=rating&wheres[1][operator]=%3E%3D&wheres[1][value]=4.5&wheres[1][boolean]=or'

for (const db of testDatabases()) {
  describe(`wheres: one parenthesised client group (${db.name})`, () => {
    it("never widens the caller's where: tenant = 5 and (a or b)", async () => {
      const query = applyQuery(db, 'posts', VIEWS_OVER_500_OR_RATED_4_5, {}, db.knex('posts').where('posts.user_id', 5))
      expectSql(db.name, 'apply/or-grouping/caller where', query)
      expect(sortedIdsOf(await query)).to.deep.equal([13])
    })

    it('without a caller where, the group gives the plain or', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', VIEWS_OVER_500_OR_RATED_4_5))).to.deep.equal([1, 3, 13, 17, 18])
    })

    it("keeps the caller's own orWhere in its own group: (x or y) and (a or b)", async () => {
      const base = db.knex('posts').where('posts.user_id', 5).orWhere('posts.user_id', 7)
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=400&wheres[1][column]=rating&wheres[1][operator]=%3E%3D&wheres[1][value]=4.6&wheres[1][boolean]=or',
        {},
        base,
      )
      expectSql(db.name, 'apply/or-grouping/caller orWhere', query)
      expect(sortedIdsOf(await query)).to.deep.equal([13, 17, 18])
    })

    it('chains and/or in order as SQL precedence reads them: a and b or c', async () => {
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=published&wheres[0][value]=true&wheres[1][column]=views&wheres[1][operator]=%3E&wheres[1][value]=300&wheres[1][boolean]=and' +
          '&wheres[2][column]=rating&wheres[2][value]=1&wheres[2][boolean]=or',
      )
      expectSql(db.name, 'apply/or-grouping/a and b or c', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 12, 13, 17])
    })

    it("ignores the first where's boolean (there is nothing before it)", async () => {
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=id&wheres[0][value]=3&wheres[0][boolean]=or',
        {},
        db.knex('posts').where('posts.user_id', 1),
      )
      expect(sortedIdsOf(await query)).to.deep.equal([3])
      const other = applyQuery(
        db,
        'posts',
        'wheres[0][column]=id&wheres[0][value]=6&wheres[0][boolean]=or',
        {},
        db.knex('posts').where('posts.user_id', 1),
      )
      expect(sortedIdsOf(await other)).to.deep.equal([])
    })

    it('defaults a missing boolean to and', async () => {
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=user_id&wheres[0][value]=1&wheres[1][column]=published&wheres[1][value]=false',
      )
      expect(sortedIdsOf(await query)).to.deep.equal([5])
    })

    it('applies a request with 26 wheres (more than qs arrayLimit) on every database', async () => {
      const excluded = [...Array.from({ length: 22 }, (_, index) => index + 1), 100, 101, 102, 103]
      const query = excluded
        .map(
          (id, index) =>
            `wheres[${index}][column]=id&wheres[${index}][operator]=!%3D&wheres[${index}][value]=${id}&wheres[${index}][boolean]=and`,
        )
        .join('&')
      const builder = applyQuery(db, 'posts', query)
      expectSql(db.name, 'apply/or-grouping/26 wheres', builder)
      expect(sortedIdsOf(await builder)).to.deep.equal([23, 24])
    })
  })
}
