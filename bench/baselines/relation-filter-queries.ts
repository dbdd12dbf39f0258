import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import type { HandDialect } from './hand-dialect.ts'

const USER_COLUMNS = Object.keys(relationMap.users.columns).map((column) => `users.${column}`)

/** One relation filter: the client's request, and the same filter written by hand three ways. */
export interface RelationFilterCase {
  name: string
  request: Record<string, unknown>
  /** A correlated `EXISTS` per relation hop. */
  exists(db: Knex, dialect: HandDialect): Knex.QueryBuilder
  /** `users.id in (select …)`: the related keys first, then the users (a semi-join the planner may start from either side). */
  keyIn(db: Knex, dialect: HandDialect): Knex.QueryBuilder
  /** What join-based libraries generate: `INNER JOIN` each hop, then `DISTINCT` to undo the row multiplication. */
  joinDistinct(db: Knex, dialect: HandDialect): Knex.QueryBuilder
}

function page(query: Knex.QueryBuilder, limit: number | undefined): Knex.QueryBuilder {
  return limit === undefined ? query : query.orderBy('users.id', 'asc').limit(limit)
}

/** Users with a post whose title matches `pattern`; the first `limit` by id, or all of them. */
export function titleFilter(pattern: string, limit?: number): RelationFilterCase {
  return {
    name: `posts.title like '${pattern}'${limit === undefined ? ', all matches' : `, first ${limit}`}`,
    request: {
      wheres: [{ column: 'posts.title', operator: 'like', value: pattern, boolean: 'and' }],
      ...(limit === undefined ? {} : { limit }),
    },
    exists: (db, dialect) =>
      page(
        db('users')
          .select(USER_COLUMNS)
          .whereExists(function (this: Knex.QueryBuilder) {
            dialect.like(
              this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')),
              'posts.title',
              pattern,
            )
          }),
        limit,
      ),
    keyIn: (db, dialect) =>
      page(
        db('users')
          .select(USER_COLUMNS)
          .whereIn('users.id', dialect.like(db('posts').select('posts.user_id'), 'posts.title', pattern)),
        limit,
      ),
    joinDistinct: (db, dialect) =>
      page(
        dialect.like(
          db('users').distinct(USER_COLUMNS).innerJoin('posts', 'posts.user_id', 'users.id'),
          'posts.title',
          pattern,
        ),
        limit,
      ),
  }
}

/** Users with a post that has a comment whose body is `body`; the first `limit` by id, or all of them. */
export function commentFilter(body: string, limit?: number): RelationFilterCase {
  return {
    name: `posts.comments.body = '${body}'${limit === undefined ? ', all matches' : `, first ${limit}`}`,
    request: {
      wheres: [{ column: 'posts.comments.body', operator: '=', value: body, boolean: 'and' }],
      ...(limit === undefined ? {} : { limit }),
    },
    exists: (db) =>
      page(
        db('users')
          .select(USER_COLUMNS)
          .whereExists(function (this: Knex.QueryBuilder) {
            this.select(db.raw('1'))
              .from('posts')
              .where('posts.user_id', db.ref('users.id'))
              .whereExists(function (this: Knex.QueryBuilder) {
                this.select(db.raw('1'))
                  .from('comments')
                  .where('comments.post_id', db.ref('posts.id'))
                  .where('comments.body', '=', body)
              })
          }),
        limit,
      ),
    keyIn: (db) =>
      page(
        db('users')
          .select(USER_COLUMNS)
          .whereIn(
            'users.id',
            db('posts')
              .select('posts.user_id')
              .innerJoin('comments', 'comments.post_id', 'posts.id')
              .where('comments.body', '=', body),
          ),
        limit,
      ),
    joinDistinct: (db) =>
      page(
        db('users')
          .distinct(USER_COLUMNS)
          .innerJoin('posts', 'posts.user_id', 'users.id')
          .innerJoin('comments', 'comments.post_id', 'posts.id')
          .where('comments.body', '=', body),
        limit,
      ),
  }
}
