// Type tests, compiled by `npm run typecheck` and never run: TableRecord and loadRelations carry the aggregates
// a client may ask for, as optional numbers and booleans under the names the library returns them as.
import knex from 'knex'
import {
  defineRelationMap,
  loadRelations,
  type AggregateRecord,
  type RelationMap,
  type SnakeCase,
  type TableRecord,
} from '../../lib/index.ts'
import type { Equal, Expect } from './expect-type.ts'

const map = defineRelationMap({
  users: {
    columns: { id: 'integer', name: 'string', created_at: 'datetime' },
    relations: {
      posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
      team: { type: 'belongsTo', table: 'teams', foreignKey: 'team_id' },
      blogPosts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
    },
    aggregates: {
      postsViewsSum: { relation: 'posts', fn: 'sum', column: 'views' },
      postsRatingAvg: { relation: 'posts', fn: 'avg', column: 'rating' },
      publishedPostsCount: { relation: 'posts', fn: 'count' },
      lastPostAt: { relation: 'posts', fn: 'max', column: 'created_at' },
    },
  },
  teams: { columns: { id: 'integer' } },
  posts: { columns: { id: 'integer', user_id: 'integer', views: 'integer', rating: 'number', created_at: 'datetime' } },
})

type User = TableRecord<typeof map, 'users'>
type _snake = Expect<Equal<SnakeCase<'postsViewsSum'>, 'posts_views_sum'>>
type _count = Expect<Equal<User['posts_count'], number | undefined>>
type _camelRelation = Expect<Equal<User['blog_posts_count'], number | undefined>>
type _exists = Expect<Equal<User['team_exists'], boolean | undefined>>
type _toManyExists = Expect<Equal<User['posts_exists'], boolean | undefined>>
type _sum = Expect<Equal<User['posts_views_sum'], number | null | undefined>>
type _avg = Expect<Equal<User['posts_rating_avg'], number | null | undefined>>
type _declaredCount = Expect<Equal<User['published_posts_count'], number | undefined>>
type _max = Expect<Equal<User['last_post_at'], string | null | undefined>>
type _untyped = Expect<Equal<AggregateRecord<RelationMap, 'users'>, {}>>

export function aggregateKeys(user: User): void {
  // @ts-expect-error a belongsTo has no count: only to-many relations do
  void user.team_count
  // @ts-expect-error the declared name is returned in snake_case only
  void user.postsViewsSum
}

export async function loadedAggregates(): Promise<void> {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
  const rows: Array<{ id: number }> = await db('users').select('id')
  const loaded = await loadRelations(db, 'users', rows, ['postsCount'], map)
  type _loaded = Expect<Equal<(typeof loaded)[number]['posts_count'], number | undefined>>
}
