import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

const where = (column: string, operator: string, value: string, index = 0, boolean = 'and'): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${encodeURIComponent(value)}&wheres[${index}][boolean]=${boolean}`

for (const db of testDatabases()) {
  describe(`wheres on relation.column: morphOne, morphMany, morphTo (${db.name})`, () => {
    describe('morphMany / morphOne', () => {
      it('posts with an image like cover (images.url on posts)', async () => {
        const query = applyQuery(db, 'posts', where('images.url', 'like', '%cover%'))
        expectSql(db.name, 'relations/filter/morphMany', query)
        expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 7])
      })

      it('checks the morph type: a user image never matches a post with the same id', async () => {
        expect(sortedIdsOf(await applyQuery(db, 'posts', where('images.url', 'like', '%/users/%')))).to.deep.equal([])
        expect(sortedIdsOf(await applyQuery(db, 'users', where('images.url', 'like', '%/posts/1/%')))).to.deep.equal([])
      })

      it('users with an image like beach (images.url on users)', async () => {
        expect(sortedIdsOf(await applyQuery(db, 'users', where('images.url', 'like', '%beach%')))).to.deep.equal([5])
      })

      it('morphOne: users whose avatar ends in avatar.png', async () => {
        const query = applyQuery(db, 'users', where('avatar.url', 'like', '%avatar.png'))
        expectSql(db.name, 'relations/filter/morphOne', query)
        expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 5])
      })

      it('what the client sends for user.$images(): imageable_type and imageable_id on images', async () => {
        const query = applyQuery(
          db,
          'images',
          `${where('imageable_type', '=', 'User')}&${where('imageable_id', '=', '5', 1)}`,
        )
        expect(sortedIdsOf(await query)).to.deep.equal([2, 3, 4])
      })
    })

    describe('morphTo', () => {
      it('imageable.title: only Post targets have a title, so only their branch is searched', async () => {
        const query = applyQuery(db, 'images', where('imageable.title', 'like', '%sql%'))
        expectSql(db.name, 'relations/filter/morphTo one target', query)
        expect(sortedIdsOf(await query)).to.deep.equal([6, 7, 8])
      })

      it('imageable.name: only User targets have a name', async () => {
        expect(sortedIdsOf(await applyQuery(db, 'images', where('imageable.name', '=', 'Eve')))).to.deep.equal([
          2, 3, 4,
        ])
      })

      it('imageable.id: every target, one OR branch per type with its type condition', async () => {
        const query = applyQuery(db, 'images', where('imageable.id', '=', '1'))
        expectSql(db.name, 'relations/filter/morphTo every target', query)
        expect(sortedIdsOf(await query)).to.deep.equal([1, 6, 7])
      })

      it('imageable.created_at compares datetimes on both targets', async () => {
        expect(
          sortedIdsOf(await applyQuery(db, 'images', where('imageable.created_at', '<', '2021-02-05T00:00:00Z'))),
        ).to.deep.equal([1, 5])
      })

      it('nests after morphTo, on each target that has the relation', async () => {
        const query = applyQuery(db, 'images', where('imageable.comments.body', 'like', 'great%'))
        expectSql(db.name, 'relations/filter/morphTo nested', query)
        expect(sortedIdsOf(await query)).to.deep.equal([2, 3, 4, 6, 7])
        expect(sortedIdsOf(await applyQuery(db, 'images', where('imageable.tags.name', '=', 'sql')))).to.deep.equal([
          6, 7, 8,
        ])
      })

      it('null on a morphTo column, and or with an own column', async () => {
        expect(sortedIdsOf(await applyQuery(db, 'images', where('imageable.score', '=', 'null')))).to.deep.equal([5])
        expect(sortedIdsOf(await applyQuery(db, 'images', where('imageable.rating', '=', 'null')))).to.deep.equal([])
        const or = `${where('id', '=', '10')}&${where('imageable.name', '=', 'Alice', 1, 'or')}`
        expect(sortedIdsOf(await applyQuery(db, 'images', or))).to.deep.equal([1, 10])
      })

      it('rejects a column no target has (unknown_column)', () => {
        expectQueryParamsError(() => applyQuery(db, 'images', where('imageable.password', '=', 'x')), {
          code: 'unknown_column',
          param: 'wheres[0][column]',
        })
      })

      it('rejects a relation no target has (unknown_relation)', () => {
        expectQueryParamsError(() => applyQuery(db, 'images', where('imageable.likes.id', '=', '1')), {
          code: 'unknown_relation',
          param: 'wheres[0][column]',
        })
      })
    })
  })
}
