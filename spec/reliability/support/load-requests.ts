import { demoData } from '../../../fixtures/data.ts'

/** One request of the load mix, and the status it must get. */
export interface LoadRequest {
  path: string
  status: 200 | 400 | 404
  /** For some valid requests: the ids the response's `data` must hold, from the fixtures. */
  ids?: number[]
}

const postsOf = (user: number): number[] =>
  demoData.posts.filter((post) => post.user_id === user).map((post) => post.id)
const enc = encodeURIComponent

/**
 * The load mix: list, detail and paginated reads with filters through relations, scopes, orders by a
 * relation, eager loading and distinct; and requests that must be refused — the hidden column, broken
 * brackets, limits past the caps, an injection attempt, an unknown scope, too deep a relation path.
 */
export const LOAD_REQUESTS: readonly LoadRequest[] = [
  {
    path: `/posts?wheres[0][column]=user_id&wheres[0][value]=1&with[0]=author&orders[0][column]=id`,
    status: 200,
    ids: postsOf(1),
  },
  { path: '/users?page=2&limit=5&with[0]=team&orders[0][column]=id', status: 200, ids: [6, 7, 8, 9, 10] },
  {
    path: `/users?wheres[0][column]=posts.comments.body&wheres[0][operator]=like&wheres[0][value]=${enc('%great%')}&columns[0]=id&columns[1]=name`,
    status: 200,
  },
  {
    path: '/posts?scopes[0]=popular&relationsExists[0]=tags&orders[0][column]=author.name&orders[1][column]=id&limit=10&with[0]=tags',
    status: 200,
  },
  {
    path: '/images?with[0]=imageable&orders[0][column]=id',
    status: 200,
    ids: demoData.images.map((image) => image.id),
  },
  { path: '/teams/1?with[0]=members.posts', status: 200 },
  { path: '/comments?distinct[0]=post_id&orders[0][column]=post_id', status: 200 },
  { path: '/users/999999', status: 404 },
  { path: `/users?wheres[0][column]=password&wheres[0][operator]=like&wheres[0][value]=${enc('$2b%')}`, status: 400 },
  { path: '/users?wheres[0[column]=name', status: 400 },
  { path: '/posts?limit=100000', status: 400 },
  { path: '/users?orders[0][column]=id&orders[0][direction]=sideways', status: 400 },
  { path: `/users?wheres[0][column]=id&wheres[0][value]=${enc("1' OR '1'='1")}`, status: 400 },
  { path: '/posts?with[0]=author.password', status: 400 },
  { path: '/users?relationsExists[0]=posts.author.posts.author.posts.author', status: 400 },
  { path: '/posts?scopes[0]=nope', status: 400 },
]
