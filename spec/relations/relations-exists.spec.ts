import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

for (const db of testDatabases()) {
  describe(`relationsExists (${db.name})`, () => {
    const exists = async (table: string, query: string, snapshot?: string): Promise<number[]> => {
      const builder = applyQuery(db, table, query)
      if (snapshot !== undefined) expectSql(db.name, `relations/exists/${snapshot}`, builder)
      return sortedIdsOf(await builder)
    }

    it('belongsTo: users with a team', async () => {
      expect(await exists('users', 'relations_exists[0]=team', 'belongsTo')).to.deep.equal([
        1, 2, 3, 5, 6, 7, 9, 10, 11,
      ])
    })

    it('hasOne: users who own a team', async () => {
      expect(await exists('users', 'relations_exists[0]=ownedTeam', 'hasOne')).to.deep.equal([1, 3, 5])
    })

    it('hasMany: users with posts; teams with members', async () => {
      expect(await exists('users', 'relations_exists[0]=posts', 'hasMany')).to.deep.equal([
        1, 2, 3, 4, 5, 7, 9, 10, 11, 12,
      ])
      expect(await exists('teams', 'relations_exists[0]=members')).to.deep.equal([1, 2, 3])
    })

    it('belongsToMany: posts with tags, tags with posts (the related row joined through the pivot)', async () => {
      expect(await exists('posts', 'relations_exists[0]=tags', 'belongsToMany')).to.deep.equal([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 19, 20, 21, 22,
      ])
      expect(await exists('tags', 'relationsExists[0]=posts')).to.deep.equal([1, 2, 3, 4, 5])
    })

    it('morphOne / morphMany: users with an avatar, posts with images', async () => {
      expect(await exists('users', 'relations_exists[0]=avatar', 'morphOne')).to.deep.equal([1, 3, 5])
      expect(await exists('posts', 'relations_exists[0]=images', 'morphMany')).to.deep.equal([1, 3, 7])
    })

    it('morphTo: images whose imageable exists, per type', async () => {
      expect(await exists('images', 'relations_exists[0]=imageable', 'morphTo')).to.deep.equal([
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
      ])
    })

    it('nested: users with a post that itself has comments / images', async () => {
      expect(await exists('users', 'relations_exists[0]=posts.comments', 'nested')).to.deep.equal([
        1, 2, 3, 4, 5, 7, 9, 10,
      ])
      expect(await exists('users', 'relations_exists[0]=posts.images')).to.deep.equal([1, 2])
      expect(await exists('teams', 'relations_exists[0]=members.posts')).to.deep.equal([1, 2, 3])
    })

    it('nested through a pivot and after morphTo', async () => {
      expect(await exists('users', 'relations_exists[0]=posts.tags')).to.deep.equal([1, 2, 3, 4, 5, 7, 9, 10])
      expect(await exists('images', 'relations_exists[0]=imageable.tags')).to.deep.equal([6, 7, 8, 9, 10])
    })

    it('AND-s several entries with each other', async () => {
      expect(
        await exists(
          'users',
          'relations_exists[0]=comments&relations_exists[1]=team&relations_exists[2]=posts',
          'several',
        ),
      ).to.deep.equal([1, 2, 3, 5, 7, 9, 10, 11])
      expect(await exists('teams', 'relations_exists[0]=members&relations_exists[1]=owner')).to.deep.equal([1, 2])
    })

    it("AND-s them with the client's where group (an or there does not reach them)", async () => {
      const query =
        'wheres[0][column]=name&wheres[0][value]=Heidi&wheres[1][column]=name&wheres[1][value]=Grace&wheres[1][boolean]=or&relations_exists[0]=posts'
      expect(await exists('users', query, 'with wheres')).to.deep.equal([7])
    })

    it('rejects an unknown relation (unknown_relation with allowed, param as sent)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'relations_exists[0]=posts&relations_exists[1]=friends'), {
        code: 'unknown_relation',
        param: 'relations_exists[1]',
        allowed: ['team', 'posts', 'comments', 'ownedTeam', 'avatar', 'images'],
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'relationsExists[0]=posts.likes'), {
        code: 'unknown_relation',
        param: 'relationsExists[0]',
        allowed: ['author', 'comments', 'tags', 'images'],
      })
    })
  })
}
