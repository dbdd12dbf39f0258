// Type tests, compiled by `npm run typecheck` and never run: cursorPaginate reads its `data` type from the builder,
// as paginate does, and needs a secret.
import knex from 'knex'
import {
  applyQueryParams,
  type cursorLinks,
  cursorPaginate,
  parseQueryParams,
  type CursorLinks,
  type CursorPaginated,
  type RelationMap,
} from '../../lib/index.ts'
import type { Expect, Equal } from './expect-type.ts'

interface Post {
  id: number
  title: string
}

const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
const map: RelationMap = { posts: { columns: { id: 'integer', title: 'string' } } }
const params = parseQueryParams('limit=10')
const secret = 'a secret of at least thirty-two bytes'

export async function cursorResults(): Promise<void> {
  const posts = applyQueryParams(db<Post>('posts'), params, map)
  const page = await cursorPaginate(posts, params, { secret })
  const untyped = await cursorPaginate(applyQueryParams(db('posts'), params, map), params, {
    secret: [secret, 'the old one, also thirty-two bytes'],
  })
  type _page = Expect<Equal<typeof page, CursorPaginated<Post>>>
  type _untyped = Expect<Equal<typeof untyped, CursorPaginated<Record<string, unknown>>>>
  type _cursor = Expect<Equal<typeof page.meta.next_cursor, string | null>>
  type _links = Expect<Equal<ReturnType<typeof cursorLinks>, CursorLinks>>
  // @ts-expect-error the secret is required
  await cursorPaginate(posts, params, {})
  // @ts-expect-error a builder that resolves to one row (`.first()`) is not a page of rows
  await cursorPaginate(posts.first(), params, { secret })
}
