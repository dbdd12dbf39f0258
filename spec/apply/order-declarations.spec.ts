import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/**
 * What the map declares about columns and relations shapes the order: a NOT NULL column gets no
 * NULL-ordering clause, the tie-breaker follows the last order's direction and is left out after a NOT NULL
 * unique column, and an order through belongsTo hops joins them (inner while `required` and unguarded).
 */

const orderBy = (sql: string): string => sql.slice(sql.lastIndexOf(' order by ') + 10)

/** The fixture map with a guard on `users`, so a required belongsTo to it can hide its row. */
const guardedUsers: RelationMap = {
  ...relationMap,
  users: {
    ...relationMap.users,
    guard: (query, { table }) => {
      query.where(`${table}.is_admin`, false)
    },
  },
}

for (const db of testDatabases()) {
  describe(`orders shaped by the map's declarations (${db.name})`, () => {
    it('a NOT NULL column has no NULL-ordering clause; a nullable one keeps it where the database needs it', () => {
      const sql = applyQuery(
        db,
        'posts',
        'orders[0][column]=created_at&orders[0][direction]=desc&orders[1][column]=rating',
      ).toSQL().sql
      const created = db.knex.raw('??', ['posts.created_at']).toSQL().sql
      const rating = db.knex.raw('??', ['posts.rating']).toSQL().sql
      expect(orderBy(sql)).to.equal(
        db.name === 'postgres' ? `${created} desc, ${rating} asc nulls first` : `${created} desc, ${rating} asc`,
      )
    })

    it('newest first with a page: the key tie-breaker descends too, so one index on created_at serves it', async () => {
      const query = applyQuery(db, 'posts', 'orders[0][column]=created_at&orders[0][direction]=desc&page=2&limit=5')
      expectSql(db.name, 'apply/order-declarations/newest first', query)
      const rows = (await query) as Array<{ id: number; created_at: unknown }>
      const all = (await db.knex('posts').select('id', 'created_at')) as Array<{ id: number; created_at: unknown }>
      const key = (row: { id: number; created_at: unknown }): string =>
        `${new Date(String(row.created_at)).toISOString()}#${String(row.id).padStart(6, '0')}`
      const expected = all
        .sort((a, b) => key(b).localeCompare(key(a)))
        .slice(5, 10)
        .map((row) => row.id)
      expect(idsOf(rows)).to.deep.equal(expected)
    })

    it('no tie-breaker after a NOT NULL unique column (users.email)', async () => {
      const query = applyQuery(db, 'users', 'orders[0][column]=email&limit=4')
      expectSql(db.name, 'apply/order-declarations/unique column', query)
      expect(orderBy(query.toSQL().sql)).to.equal(
        `${db.knex.raw('??', ['users.email']).toSQL().sql} asc limit ${db.name === 'sqlite' ? '4' : '?'}`,
      )
      expect(idsOf(await query)).to.deep.equal(idsOf(await db.knex('users').select('id').orderBy('email').limit(4)))
    })

    it('a required belongsTo on an unguarded table is an inner join; the same rows as a left join', async () => {
      const query = applyQuery(
        db,
        'comments',
        'orders[0][column]=post.author.name&orders[1][column]=post.title&limit=50',
      )
      expectSql(db.name, 'apply/order-declarations/required hops', query)
      const sql = query.toSQL().sql
      expect(sql.match(/ inner join /g)).to.have.length(2)
      expect(sql).not.to.include(' left join ')
      const { required: _post, ...optionalPost } = relationMap.comments.relations.post
      const { required: _author, ...optionalAuthor } = relationMap.posts.relations.author
      const optional: RelationMap = {
        ...relationMap,
        comments: { ...relationMap.comments, relations: { ...relationMap.comments.relations, post: optionalPost } },
        posts: { ...relationMap.posts, relations: { ...relationMap.posts.relations, author: optionalAuthor } },
      }
      const left = applyQueryParams(
        db.knex('comments'),
        parseQueryParams('orders[0][column]=post.author.name&orders[1][column]=post.title&limit=50'),
        optional,
      )
      expect(left.toSQL().sql.match(/ left join /g)).to.have.length(2)
      expect(idsOf(await query)).to.deep.equal(idsOf(await left))
    })

    it('a guard on the related table makes the hop a left join, even when required', () => {
      const query = applyQueryParams(db.knex('posts'), parseQueryParams('orders[0][column]=author.name'), guardedUsers)
      expectSql(db.name, 'apply/order-declarations/guarded hop', query)
      expect(query.toSQL().sql).to.include(' left join ').and.not.include(' inner join ')
    })

    it('an optional hop after a required one, or the reverse, is a left join from there on', () => {
      const sql = applyQuery(db, 'comments', 'orders[0][column]=author.team.name').toSQL().sql
      expect(sql).to.match(/ inner join .* left join /)
      const reverse = applyQuery(db, 'teams', 'orders[0][column]=owner.email').toSQL().sql
      expect(reverse).to.include(' left join ').and.not.include(' inner join ')
    })

    it('the count of a page ordered through joins leaves the joins out, and the total is the same', async () => {
      const query = applyQuery(
        db,
        'comments',
        'orders[0][column]=post.author.name&orders[1][column]=author.team.name&page=2&limit=5',
      )
      const count = countQuery(query)
      expect(count.toSQL().sql).not.to.include(' join ')
      const page = await paginate(query, { page: 2 })
      expect(page.meta.total).to.equal(
        Number(((await db.knex('comments').count({ total: '*' })) as Array<{ total: unknown }>)[0]?.total),
      )
      expect(page.data).to.have.length(5)
      expect(query.toSQL().sql).to.include(' join ')
    })

    it('a caller selecting * keeps the scalar subquery, so a join adds no columns', async () => {
      const query = applyQuery(db, 'users', 'orders[0][column]=team.name&limit=3', {}, db.knex('users').select('*'))
      expect(query.toSQL().sql).not.to.include(' join ')
      const rows = (await query) as Array<Record<string, unknown>>
      expect(Object.keys(rows[0] ?? {})).to.include('password')
      expect(idsOf(rows)).to.deep.equal(idsOf(await applyQuery(db, 'users', 'orders[0][column]=team.name&limit=3')))
    })

    it('an alias already used by a caller join is not reused', async () => {
      const base = db.knex('posts').join('users', 'users.id', 'posts.user_id').where('users.is_admin', false)
      const query = applyQuery(db, 'posts', 'orders[0][column]=author.name&orders[1][column]=id&limit=5', {}, base)
      expectSql(db.name, 'apply/order-declarations/caller join', query)
      expect(query.toSQL().sql).to.include(db.knex.raw('?? as ??', ['users', 'users_2']).toSQL().sql)
      expect(idsOf(await query)).to.have.length(5)
    })
  })
}
