import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'

const columns = (table: keyof typeof relationMap): string[] =>
  Object.keys(relationMap[table].columns).map((column) => `${table}.${column}`)

type Row = Record<string, unknown>

/** The naive loop (N+1): every user, then one query per user for its posts and one per post for its comments. */
export async function naiveUsersWithPostsAndComments(db: Knex): Promise<Row[]> {
  const users: Row[] = await db('users').select(columns('users'))
  for (const user of users) {
    const posts: Row[] = await db('posts')
      .select(columns('posts'))
      .where('posts.user_id', user.id as number)
      .orderBy('posts.id')
    for (const post of posts) {
      post.comments = await db('comments')
        .select(columns('comments'))
        .where('comments.post_id', post.id as number)
        .orderBy('comments.id')
    }
    user.posts = posts
  }
  return users
}
