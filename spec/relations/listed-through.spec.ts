import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { guardedFormStatements } from '../../lib/apply/page-rewrite.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * A listed relation filter through a `required` belongsTo to a table without a guard, whose rows must meet one
 * listed filter on the hop's related key (`author.posts.views > ?`), is written without the hop: `lt_posts.user_id
 * in (select lt_posts_2.user_id …)`. A guarded or optional hop, or any other inner condition, keeps it. The rows are
 * always those of the hand-written query.
 */
const users = {
  columns: { id: 'integer', name: { type: 'string', nullable: false } },
  relations: { posts: { type: 'hasMany', table: 'lt_posts', foreignKey: 'user_id' } },
} as const
const posts = (required: boolean) =>
  ({
    columns: { id: 'integer', user_id: { type: 'integer', nullable: false }, views: 'integer' },
    relations: { author: { type: 'belongsTo', table: 'lt_users', foreignKey: 'user_id', required } },
  }) as const
const map = defineRelationMap({ lt_users: users, lt_posts: posts(true) })
const optional = defineRelationMap({ lt_users: users, lt_posts: posts(false) })
/** Users 1–5 hidden: a guard on the hop's table. */
const guarded = defineRelationMap({
  lt_users: { ...users, guard: (query, { table }) => void query.where(`${table}.id`, '>', 5) },
  lt_posts: posts(true),
})

const USERS = 40
const POSTS = 400
const userOf = (post: number): number => ((post * 7) % USERS) + 1
const viewsOf = (post: number): number => (post * 37) % 1_000

/** Posts whose author has a post with more than `views` views (and, with `hidden`, is not one of users 1–5). */
const expected = (views: number, hidden = false): number[] => {
  const authors = new Set<number>()
  for (let post = 1; post <= POSTS; post++) if (viewsOf(post) > views) authors.add(userOf(post))
  return Array.from({ length: POSTS }, (_, index) => index + 1).filter(
    (post) => authors.has(userOf(post)) && !(hidden && userOf(post) <= 5),
  )
}

const FILTER = (views: number): string =>
  `wheres[0][column]=author.posts.views&wheres[0][operator]=%3E&wheres[0][value]=${views}&orders[0][column]=id`

for (const db of testDatabases()) {
  describe(`a listed filter through a required belongsTo (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (request: string, relations: RelationMap = map): Knex.QueryBuilder =>
      applyQueryParams(db.knex('lt_posts'), parseQueryParams(request), relations)
    // PostgreSQL writes every filter as a correlated exists; SQLite lists a filter the query reads whole.
    const lists = db.name !== 'postgres'

    before(async () => {
      await db.knex.schema.dropTableIfExists('lt_posts')
      await db.knex.schema.dropTableIfExists('lt_users')
      await db.knex.schema.createTable('lt_users', (table) => {
        table.increments('id')
        table.string('name', 20).notNullable()
      })
      await db.knex.schema.createTable('lt_posts', (table) => {
        table.increments('id')
        table.integer('user_id').notNullable().index('lt_posts_user_id')
        table.integer('views').notNullable().index('lt_posts_views')
      })
      await db.knex('lt_users').insert(Array.from({ length: USERS }, (_, i) => ({ id: i + 1, name: `user ${i + 1}` })))
      const rows = Array.from({ length: POSTS }, (_, i) => ({
        id: i + 1,
        user_id: userOf(i + 1),
        views: viewsOf(i + 1),
      }))
      await db.knex.batchInsert('lt_posts', rows, 200)
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('lt_posts')
      await db.knex.schema.dropTableIfExists('lt_users')
    })

    it('lists the related posts directly, without the users hop, for a broad and a selective value', async () => {
      for (const views of [100, 990]) {
        const query = apply(FILTER(views))
        const { sql } = query.toSQL()
        if (lists) {
          expect(sql).to.match(
            /where \([`"]lt_posts[`"]\.[`"]user_id[`"] in \(select [`"]lt_posts_2[`"]\.[`"]user_id[`"] from [`"]lt_posts[`"] as [`"]lt_posts_2[`"] where [`"]lt_posts_2[`"]\.[`"]views[`"] > /,
          )
          expect(sql).not.to.match(/lt_users/)
        } else expect(sql).to.match(/exists \(select 1 from "lt_users"/)
        expect(idsOf(await query), `views > ${views}`).to.deep.equal(expected(views))
      }
      expect(expected(990)).to.have.length.within(1, POSTS / 4)
    })

    it('MariaDB: a page leaves the hop out too, rather than joining it for its filter (joinFilterHops)', async () => {
      const query = apply(`${FILTER(100)}&limit=5&page=3`)
      // The listing form; the walking form, read from a long list (`Dialect.listedWalk`), tests the hop per row.
      if (db.name === 'mysql')
        expect(guardedFormStatements(query)?.list.sql)
          .to.be.a('string')
          .and.not.match(/lt_users/)
      expect(idsOf(await query)).to.deep.equal(expected(100).slice(10, 15))
    })

    it('keeps the hop through a guarded table, which hides its rows', async () => {
      const query = apply(FILTER(100), guarded)
      expect(query.toSQL().sql).to.match(/lt_users/)
      expect(idsOf(await query)).to.deep.equal(expected(100, true))
      expect(expected(100, true).length).to.be.lessThan(expected(100).length)
    })

    it('keeps the hop of an optional belongsTo', async () => {
      const query = apply(FILTER(100), optional)
      expect(query.toSQL().sql).to.match(/lt_users/)
      expect(idsOf(await query)).to.deep.equal(expected(100))
    })

    it('keeps the hop when the related rows meet a condition of their own (author.name)', async () => {
      const query = apply(
        'wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user 1%25&orders[0][column]=id',
      )
      expect(query.toSQL().sql).to.match(/lt_users/)
      const names = new Set(
        Array.from({ length: USERS }, (_, i) => i + 1).filter((id) => `user ${id}`.startsWith('user 1')),
      )
      const rows = Array.from({ length: POSTS }, (_, i) => i + 1).filter((post) => names.has(userOf(post)))
      expect(idsOf(await query)).to.deep.equal(rows)
    })
  })
}
