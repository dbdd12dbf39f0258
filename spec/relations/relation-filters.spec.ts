import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const where = (column: string, operator: string, value: string, index = 0, boolean = 'and'): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${encodeURIComponent(value)}&wheres[${index}][boolean]=${boolean}`

const USER_RELATIONS = ['team', 'posts', 'comments', 'ownedTeam', 'avatar', 'images']

for (const db of testDatabases()) {
  describe(`wheres on relation.column: belongsTo, hasOne, hasMany, nested (${db.name})`, () => {
    it('belongsTo: users whose team is named Core', async () => {
      const query = applyQuery(db, 'users', where('team.name', '=', 'Core'))
      expectSql(db.name, 'relations/filter/belongsTo', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2, 3, 9])
    })

    it('belongsTo: posts whose author is an admin (boolean coerced on the related column)', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', where('author.is_admin', '=', 'true')))).to.deep.equal([
        1, 2, 3, 4, 5, 9, 10, 11, 17, 18,
      ])
    })

    it('hasOne: users who own a team with an o in its name', async () => {
      const query = applyQuery(db, 'users', where('ownedTeam.name', 'like', '%o%'))
      expectSql(db.name, 'relations/filter/hasOne', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3])
    })

    it('hasMany: users with SOME post matching, each user once (EXISTS, no join)', async () => {
      const query = applyQuery(db, 'users', where('posts.title', 'like', '%sql%'))
      expectSql(db.name, 'relations/filter/hasMany', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 9])
    })

    it('hasMany: posts with a comment by user 12', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', where('comments.user_id', '=', '12')))).to.deep.equal([13, 21])
    })

    it('nested hasMany.hasMany: users with a post that has a comment starting with try', async () => {
      const query = applyQuery(db, 'users', where('posts.comments.body', 'like', 'try%'))
      expectSql(db.name, 'relations/filter/posts.comments.body', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 5])
    })

    it('nested belongsTo.belongsTo: users whose team owner has this email', async () => {
      const query = applyQuery(db, 'users', where('team.owner.email', '=', 'carol@example.org'))
      expectSql(db.name, 'relations/filter/team.owner.email', query)
      expect(sortedIdsOf(await query)).to.deep.equal([2, 3, 9])
    })

    it('aliases a table met twice on the path: users → comments → post → author → comments', async () => {
      const query = applyQuery(db, 'users', where('comments.post.author.comments.body', '=', 'Welcome!'))
      expectSql(db.name, 'relations/filter/self-referencing path', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10, 11])
    })

    it('treats each where as its own EXISTS: two conditions on posts may hold on different posts', async () => {
      const query = applyQuery(
        db,
        'users',
        `${where('posts.title', 'like', '%sql%')}&${where('posts.published', '=', 'false', 1)}`,
      )
      expectSql(db.name, 'relations/filter/two independent exists', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 9])
    })

    it('chains a relation condition with or inside the client group', async () => {
      const query = applyQuery(
        db,
        'users',
        `${where('name', '=', 'Heidi')}&${where('posts.title', 'like', '%rust%', 1, 'or')}`,
      )
      expectSql(db.name, 'relations/filter/or', query)
      expect(sortedIdsOf(await query)).to.deep.equal([8, 9])
    })

    it("an or with a relation condition never widens the caller's where", async () => {
      const query = applyQuery(
        db,
        'users',
        `${where('name', '=', 'Heidi')}&${where('posts.title', 'like', '%rust%', 1, 'or')}`,
        {},
        db.knex('users').where('users.team_id', 1),
      )
      expectSql(db.name, 'relations/filter/or under caller where', query)
      expect(sortedIdsOf(await query)).to.deep.equal([9])
    })

    it('null on a relation column: a related row whose column IS NULL', async () => {
      const query = applyQuery(
        db,
        'users',
        'wheres[0][column]=posts.published_at&wheres[0][operator]=%3D&wheres[0][value]',
      )
      expectSql(db.name, 'relations/filter/null', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 5, 9, 12])
      expect(sortedIdsOf(await applyQuery(db, 'users', where('posts.published_at', '!=', 'null')))).to.deep.equal([
        1, 2, 3, 4, 5, 7, 9, 10, 11,
      ])
    })

    it('null on a belongsTo column needs the related row: users without a team are not matched', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'users', where('team.owner_id', '=', 'null')))).to.deep.equal([6, 7, 11])
    })

    it('in / between on a relation column', async () => {
      const inList =
        'wheres[0][column]=team.name&wheres[0][operator]=in&wheres[0][value][0]=Design&wheres[0][value][1]=Research'
      expect(sortedIdsOf(await applyQuery(db, 'users', inList))).to.deep.equal([6, 7, 11])
      const range =
        'wheres[0][column]=posts.views&wheres[0][operator]=between&wheres[0][value][0]=600&wheres[0][value][1]=2000'
      expect(sortedIdsOf(await applyQuery(db, 'users', range))).to.deep.equal([1, 5])
    })

    it('reads users.name on users as the own column (the base table name is not a relation)', async () => {
      const query = applyQuery(db, 'users', where('users.name', '=', 'Eve'))
      expectSql(db.name, 'relations/filter/own table prefix', query)
      expect(sortedIdsOf(await query)).to.deep.equal([5])
    })

    it('coerces a relation value by the related column type (invalid_value)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', where('posts.views', '>', 'many', 2)), {
        code: 'invalid_value',
        param: 'wheres[2][value]',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', where('posts.views', 'like', '1%')), {
        code: 'invalid_operator',
        param: 'wheres[0][operator]',
      })
    })

    it('rejects an unknown relation (unknown_relation, allowed = the relations of that table)', () => {
      expectQueryParamsError(
        () => applyQuery(db, 'users', `${where('id', '>', '0')}&${where('friends.name', '=', 'x', 2)}`),
        {
          code: 'unknown_relation',
          param: 'wheres[2][column]',
          allowed: USER_RELATIONS,
        },
      )
      expectQueryParamsError(() => applyQuery(db, 'users', where('posts.reviews.body', '=', 'x')), {
        code: 'unknown_relation',
        param: 'wheres[0][column]',
        allowed: ['author', 'comments', 'tags', 'images'],
      })
    })

    it('rejects an unknown column of the related table (unknown_column, allowed = its columns)', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', where('team.budget', '>', '1')), {
        code: 'unknown_column',
        param: 'wheres[0][column]',
        allowed: ['id', 'name', 'owner_id', 'created_at', 'updated_at'],
      })
    })
  })
}
