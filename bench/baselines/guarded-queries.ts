import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import type { HandDialect } from './hand-dialect.ts'

type Row = Record<string, unknown>

const columns = (table: keyof typeof relationMap): string[] =>
  Object.keys(relationMap[table].columns).map((column) => `${table}.${column}`)

/** How a relation filter is written by hand: the form the library writes on that database (`Dialect.filteredRelation`). */
export type FilterForm = 'exists' | 'in'

/**
 * Figure 7's hand-written side: the relation filter `posts.title like ?` with the soft-delete condition the
 * demo's guard adds, written by hand where a careful author puts it — on the users and inside the subquery —
 * in the form the library writes on that database (a correlated `EXISTS` on PostgreSQL, `users.id in
 * (select posts.user_id …)` on SQLite and MariaDB), and the first `limit` users by id.
 */
export function guardedTitleFilter(
  db: Knex,
  dialect: HandDialect,
  form: FilterForm,
  pattern: string,
  limit: number,
): Knex.QueryBuilder {
  const query = db('users').select(columns('users')).whereNull('users.deleted_at')
  if (form === 'in') {
    query.whereIn('users.id', function (this: Knex.QueryBuilder) {
      dialect.like(this.select('posts.user_id').from('posts').whereNull('posts.deleted_at'), 'posts.title', pattern)
    })
  } else {
    query.whereExists(function (this: Knex.QueryBuilder) {
      dialect.like(
        this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')).whereNull('posts.deleted_at'),
        'posts.title',
        pattern,
      )
    })
  }
  return query.orderBy('users.id', 'asc').limit(limit)
}

/** The same for `posts.comments.body = ?`: the soft-delete condition at both hops, in the library's form. */
export function guardedCommentFilter(db: Knex, form: FilterForm, body: string, limit: number): Knex.QueryBuilder {
  const query = db('users').select(columns('users')).whereNull('users.deleted_at')
  if (form === 'in') {
    query.whereIn('users.id', function (this: Knex.QueryBuilder) {
      this.select('posts.user_id')
        .from('posts')
        .whereNull('posts.deleted_at')
        .whereIn('posts.id', function (this: Knex.QueryBuilder) {
          this.select('comments.post_id')
            .from('comments')
            .where('comments.body', '=', body)
            .whereNull('comments.deleted_at')
        })
    })
  } else {
    query.whereExists(function (this: Knex.QueryBuilder) {
      this.select(db.raw('1'))
        .from('posts')
        .where('posts.user_id', db.ref('users.id'))
        .whereNull('posts.deleted_at')
        .whereExists(function (this: Knex.QueryBuilder) {
          this.select(db.raw('1'))
            .from('comments')
            .where('comments.post_id', db.ref('posts.id'))
            .whereNull('comments.deleted_at')
            .where('comments.body', '=', body)
        })
    })
  }
  return query.orderBy('users.id', 'asc').limit(limit)
}

function attach(parents: Row[], children: Row[], parentKey: string, childKey: string, name: string): void {
  const groups = new Map<unknown, Row[]>()
  for (const child of children) {
    const group = groups.get(child[childKey])
    if (group === undefined) groups.set(child[childKey], [child])
    else group.push(child)
  }
  for (const parent of parents) parent[name] = groups.get(parent[parentKey]) ?? []
}

/**
 * `with=posts.comments` for every visible user, by hand: three queries (users, their posts, those posts'
 * comments), each with `deleted_at is null`, the children matched to their parents in a `Map`.
 */
export async function guardedUsersWithPostsAndComments(db: Knex): Promise<Row[]> {
  const users = (await db('users').select(columns('users')).whereNull('users.deleted_at')) as Row[]
  const posts = (await db('posts')
    .select(columns('posts'))
    .whereIn('posts.user_id', users.map((user) => user.id) as number[])
    .whereNull('posts.deleted_at')
    .orderBy('posts.id')) as Row[]
  const comments = (await db('comments')
    .select(columns('comments'))
    .whereIn('comments.post_id', posts.map((post) => post.id) as number[])
    .whereNull('comments.deleted_at')
    .orderBy('comments.id')) as Row[]
  attach(posts, comments, 'id', 'post_id', 'comments')
  attach(users, posts, 'id', 'user_id', 'posts')
  return users
}
