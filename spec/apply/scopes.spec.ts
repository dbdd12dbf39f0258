import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const PUBLISHED = [1, 2, 3, 4, 6, 7, 9, 10, 12, 13, 14, 15, 17, 18, 19, 21, 22, 23]
const POPULAR = [1, 2, 3, 6, 9, 13, 15, 17, 18, 21]

for (const db of testDatabases()) {
  describe(`scopes (${db.name})`, () => {
    it('applies a named scope of the table', async () => {
      const query = applyQuery(db, 'users', 'scopes[0]=admins')
      expectSql(db.name, 'apply/scopes/admins', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 7])
      expect(sortedIdsOf(await applyQuery(db, 'posts', 'scopes[0]=published'))).to.deep.equal(PUBLISHED)
    })

    it('applies several scopes, AND-ed', async () => {
      const query = applyQuery(db, 'posts', 'scopes[0]=popular&scopes[1]=published')
      expect(sortedIdsOf(await query)).to.deep.equal(POPULAR)
      const unpublishedPopular = applyQuery(
        db,
        'posts',
        'scopes[0]=popular&wheres[0][column]=published&wheres[0][value]=false',
      )
      expect(sortedIdsOf(await unpublishedPopular)).to.deep.equal([])
    })

    it("keeps a scope's own top-level or (popular) from widening the caller's where", async () => {
      const query = applyQuery(db, 'posts', 'scopes[0]=popular', {}, db.knex('posts').where('posts.user_id', 2))
      expectSql(db.name, 'apply/scopes/or scope under caller where', query)
      expect(sortedIdsOf(await query)).to.deep.equal([6])
    })

    it("keeps a scope's or from widening the client's wheres, and the client's or from widening the scope", async () => {
      const query = applyQuery(
        db,
        'posts',
        'scopes[0]=popular&scopes[1]=published&wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&wheres[1][column]=views&wheres[1][operator]=%3C&wheres[1][value]=50&wheres[1][boolean]=or',
        {},
        db.knex('posts').where('posts.user_id', 1),
      )
      expectSql(db.name, 'apply/scopes/caller, scopes and client or', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3])
    })

    it('rejects an unknown scope (unknown_scope, allowed = the table scopes)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'scopes[0]=admins&scopes[1]=deleted'), {
        code: 'unknown_scope',
        param: 'scopes[1]',
        allowed: ['admins'],
      })
      expectQueryParamsError(() => applyQuery(db, 'tags', 'scopes[0]=popular'), {
        code: 'unknown_scope',
        param: 'scopes[0]',
        allowed: [],
      })
    })

    it('does not treat Object.prototype names as scopes', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'scopes[0]=constructor'), {
        code: 'unknown_scope',
        param: 'scopes[0]',
        allowed: ['admins'],
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'scopes[0]=toString'), {
        code: 'unknown_scope',
        param: 'scopes[0]',
        allowed: ['admins'],
      })
    })
  })
}
