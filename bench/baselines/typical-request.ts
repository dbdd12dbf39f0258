import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import type { HandDialect } from './hand-dialect.ts'

/**
 * The typical list request of figure 1, as the client's request object: four wheres (one through a
 * relation), one `relations_exists`, two orders, `limit` + `page`, and `with` of two relations.
 */
export const typicalRequest = {
  wheres: [
    { column: 'name', operator: 'like', value: 'al%', boolean: 'and' },
    { column: 'is_admin', operator: '=', value: false, boolean: 'and' },
    { column: 'created_at', operator: '>=', value: '2021-01-01T00:00:00.000Z', boolean: 'and' },
    { column: 'posts.title', operator: 'like', value: '%sql%', boolean: 'and' },
  ],
  relations_exists: ['comments'],
  orders: [
    { column: 'name', direction: 'asc' },
    { column: 'created_at', direction: 'desc' },
  ],
  limit: 20,
  page: 2,
  with: ['posts', 'team'],
}

const USER_COLUMNS = Object.keys(relationMap.users.columns).map((column) => `users.${column}`)

/** The typical request with its four wheres sent `times` times over (20 wheres of mixed kinds for 5). */
export function typicalRequestRepeated(times: number): typeof typicalRequest {
  return { ...typicalRequest, wheres: Array.from({ length: times }, () => typicalRequest.wheres).flat() }
}

/**
 * The same query written by hand as a knex chain (the `with` relations load later, after the rows); with `times`,
 * that of {@link typicalRequestRepeated}.
 */
export function handTypicalQuery(db: Knex, dialect: HandDialect, times = 1): Knex.QueryBuilder {
  const query = db('users')
    .select(USER_COLUMNS)
    .where((where) => {
      // The column tests first, then the relation filters, as the library writes an and-run (and as an expert
      // would: the database tests the cheap columns before it runs a correlated subquery).
      for (let time = 0; time < times; time++) {
        dialect.like(where, 'users.name', 'al%')
        where.where('users.is_admin', '=', dialect.boolean(false))
        where.where('users.created_at', '>=', dialect.datetime('2021-01-01T00:00:00.000Z'))
      }
      for (let time = 0; time < times; time++) {
        where.whereExists(function (this: Knex.QueryBuilder) {
          dialect.like(
            this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')),
            'posts.title',
            '%sql%',
          )
        })
      }
    })
    .whereExists(function (this: Knex.QueryBuilder) {
      this.select(db.raw('1')).from('comments').where('comments.user_id', db.ref('users.id'))
    })
  // Both order columns are NOT NULL (no NULL-ordering clause); the key breaks ties in the last order's direction.
  query.orderBy('users.name', 'asc').orderBy('users.created_at', 'desc')
  return dialect.page(query.orderBy('users.id', 'desc'), 20, 20)
}
