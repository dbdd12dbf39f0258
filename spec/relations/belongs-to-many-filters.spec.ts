import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

const where = (column: string, operator: string, value: string, index = 0, boolean = 'and'): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${encodeURIComponent(value)}&wheres[${index}][boolean]=${boolean}`

for (const db of testDatabases()) {
  describe(`wheres on relation.column: belongsToMany through the pivot (${db.name})`, () => {
    it('posts with the tag sql', async () => {
      const query = applyQuery(db, 'posts', where('tags.name', '=', 'sql'))
      expectSql(db.name, 'relations/filter/belongsToMany', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3, 4, 5, 9, 10, 15, 20])
    })

    it('posts with a tag like news, case-insensitive', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', where('tags.name', 'like', 'news')))).to.deep.equal([
        8, 12, 14, 21,
      ])
    })

    it('the other way: tags of post 4 — what the client sends for post.$tags() (GET /tags?wheres[0][column]=posts.id)', async () => {
      const query = applyQuery(
        db,
        'tags',
        'wheres[0][column]=posts.id&wheres[0][operator]=%3D&wheres[0][value]=4&wheres[0][boolean]=and',
      )
      expectSql(db.name, 'relations/filter/belongsToMany inverse', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3])
    })

    it('tags of posts titled like knex, and tags of unpublished posts', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'tags', where('posts.title', 'like', '%knex%')))).to.deep.equal([1, 2, 3])
      expect(sortedIdsOf(await applyQuery(db, 'tags', where('posts.published', '=', 'false')))).to.deep.equal([
        1, 3, 4, 5,
      ])
    })

    it('nested after the pivot: tags of posts written by Eve', async () => {
      const query = applyQuery(db, 'tags', where('posts.author.name', '=', 'Eve'))
      expectSql(db.name, 'relations/filter/belongsToMany nested', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 4, 5])
    })

    it('nested before the pivot: users with a post tagged News', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'users', where('posts.tags.name', '=', 'News')))).to.deep.equal([
        2, 4, 5, 10,
      ])
    })

    it('null on the related column, and or with an own column', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'tags', where('posts.rating', '=', 'null')))).to.deep.equal([
        1, 2, 3, 4, 5,
      ])
      expect(
        sortedIdsOf(
          await applyQuery(db, 'tags', `${where('name', '=', 'archived')}&${where('posts.id', '=', '8', 1, 'or')}`),
        ),
      ).to.deep.equal([5, 6])
    })
  })
}
