import { expect } from 'chai'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../../lib/index.ts'
import { idsOf, rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'

// A schema without foreign keys (as SQLite runs by default, and many schemas are): a pivot row may outlive
// its related row. `relationsExists` and relation filters must then agree with what `with` loads.
const map = defineRelationMap({
  dp_posts: {
    columns: { id: 'integer', title: 'string' },
    relations: {
      tags: {
        type: 'belongsToMany',
        table: 'dp_tags',
        pivotTable: 'dp_post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  dp_tags: { columns: { id: 'integer', name: 'string' } },
})

for (const db of testDatabases()) {
  describe(`a pivot row whose related row is gone (${db.name})`, () => {
    before(async () => {
      await db.knex.schema.createTable('dp_posts', (table) => {
        table.integer('id').primary()
        table.string('title')
      })
      await db.knex.schema.createTable('dp_tags', (table) => {
        table.integer('id').primary()
        table.string('name')
      })
      await db.knex.schema.createTable('dp_post_tag', (table) => {
        table.integer('post_id').notNullable()
        table.integer('tag_id').notNullable()
      })
      await db.knex('dp_posts').insert([
        { id: 1, title: 'tagged' },
        { id: 2, title: 'tag deleted' },
        { id: 3, title: 'untagged' },
      ])
      await db.knex('dp_tags').insert([{ id: 10, name: 'kept' }])
      await db.knex('dp_post_tag').insert([
        { post_id: 1, tag_id: 10 },
        { post_id: 2, tag_id: 99 },
      ])
    })

    after(async () => {
      for (const table of ['dp_post_tag', 'dp_tags', 'dp_posts']) await db.knex.schema.dropTableIfExists(table)
    })

    const read = (query: string): Promise<unknown> =>
      applyQueryParams(db.knex('dp_posts'), parseQueryParams(`${query}&orders[0][column]=id`), map)

    it('relationsExists counts only posts whose tag row exists, as with loads them', async () => {
      expect(idsOf(await read('relations_exists[0]=tags'))).to.deep.equal([1])
      const loaded = rowsOf(await read('with[0]=tags'))
      expect(loaded.map((post) => [post.id, (post.tags as Array<{ id: number }>).map((tag) => tag.id)])).to.deep.equal([
        [1, [10]],
        [2, []],
        [3, []],
      ])
    })

    it('a relation filter through the pivot agrees (is not null, and a negated test)', async () => {
      expect(idsOf(await read('wheres[0][column]=tags.id&wheres[0][operator]=!=&wheres[0][value]=null'))).to.deep.equal(
        [1],
      )
      expect(idsOf(await read('wheres[0][column]=tags.name&wheres[0][operator]=!=&wheres[0][value]=x'))).to.deep.equal([
        1,
      ])
    })
  })
}
