import { performance } from 'node:perf_hooks'
import type { BenchDialect } from '../data/bench-servers.ts'
import { analyze, bulkLoad, type DatasetRecipe } from '../data/ensure-dataset.ts'
import { defineRelationMap } from '../../lib/index.ts'

/** Figure 16's rows: users (a third without posts), posts on the other two thirds, comments on every 10th post. */
export const WORST_SPEC = { users: 60_000, usersWithPosts: 40_000, posts: 600_000, comments: 300_000 } as const

const VERSION = '3'
const TABLES = ['w_users', 'w_posts', 'w_comments']

/** The map of figure 16: declared aggregates over posts, relations both ways, every column filterable and sortable. */
export const worstRelationMap = defineRelationMap({
  w_users: {
    columns: {
      id: 'integer',
      email: { type: 'string', nullable: false, unique: true },
      score: 'number',
      created_at: { type: 'integer', nullable: false },
    },
    relations: { posts: { type: 'hasMany', table: 'w_posts', foreignKey: 'user_id' } },
    aggregates: {
      postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' },
      postsViewsMin: { relation: 'posts', fn: 'min', column: 'views' },
      postsViewsSum: { relation: 'posts', fn: 'sum', column: 'views' },
    },
  },
  w_posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', nullable: false },
      title: { type: 'string', nullable: false },
      views: { type: 'integer', nullable: false },
      created_at: { type: 'integer', nullable: false },
    },
    relations: {
      author: { type: 'belongsTo', table: 'w_users', foreignKey: 'user_id', required: true },
      comments: { type: 'hasMany', table: 'w_comments', foreignKey: 'post_id' },
    },
  },
  w_comments: {
    columns: {
      id: 'integer',
      post_id: { type: 'integer', nullable: false },
      body: { type: 'string', nullable: false },
    },
    relations: { post: { type: 'belongsTo', table: 'w_posts', foreignKey: 'post_id', required: true } },
  },
})

function rowsSql(dialect: BenchDialect): string[] {
  const pg = dialect === 'postgres'
  const my = dialect === 'mysql'
  const series = (count: number, select: string): string =>
    pg
      ? select.replace('FROM_SERIES', `from generate_series(1, ${count}) as s(g)`)
      : my
        ? select.replace('FROM_SERIES', `from (select seq as g from seq_1_to_${count}) as s`)
        : `with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) ${select.replace('FROM_SERIES', 'from s')}`
  const hash = (multiplier: number): string => `((${pg ? 'g::bigint' : 'g'} * ${multiplier}) % 4294967296)`
  const { users, usersWithPosts, posts, comments } = WORST_SPEC
  return [
    series(
      users,
      `insert into w_users (id, email, score, created_at) select g, 'user' || g || '@example.com', (${hash(2246822519)} % 1000) / 10.0, g * 60 FROM_SERIES`,
    ),
    series(
      posts,
      `insert into w_posts (id, user_id, title, views, created_at) select g, ${hash(2654435761)} % ${usersWithPosts} + 1, 'Post ' || (${hash(3266489917)} % 50000), ${hash(2246822519)} % 100000, g * 30 FROM_SERIES`,
    ),
    series(
      comments,
      `insert into w_comments (id, post_id, body) select g, (${hash(2654435761)} % ${posts / 10}) * 10 + 10, 'comment ' || (${hash(3266489917)} % 100000) FROM_SERIES`,
    ),
  ]
}

/**
 * Figure 16's data set, indexed as an expert indexes this map: every foreign key and every column the map lets a
 * client sort on, one index each (users' unique email, score, created_at; posts' user_id, views, title, created_at;
 * comments' post_id, body). No composite `(user_id, views)`: a `max(views)` per user has only `(views)` and
 * `(user_id)` to choose from (the case of issue 35 point 3, where it may be read from the wrong one).
 */
export function worstRecipe(): DatasetRecipe {
  return {
    name: 'worst',
    fingerprint: () => `worst ${VERSION}:${WORST_SPEC.users}/${WORST_SPEC.posts}/${WORST_SPEC.comments}`,
    async build(db, dialect, log) {
      const start = performance.now()
      const id = dialect === 'mysql' ? 'int' : 'integer'
      const text = dialect === 'mysql' ? 'varchar(100)' : 'text'
      const real = dialect === 'postgres' ? 'double precision' : dialect === 'mysql' ? 'double' : 'real'
      await db.raw(
        `create table w_users (id ${id} not null primary key, email ${text} not null, score ${real} null, created_at ${id} not null)`,
      )
      await db.raw(
        `create table w_posts (id ${id} not null primary key, user_id ${id} not null, title ${text} not null, views ${id} not null, created_at ${id} not null)`,
      )
      await db.raw(
        `create table w_comments (id ${id} not null primary key, post_id ${id} not null, body ${text} not null)`,
      )
      await bulkLoad(db, dialect, rowsSql(dialect))
      for (const statement of [
        'create unique index w_users_email on w_users (email)',
        'create index w_users_score on w_users (score)',
        'create index w_users_created_at on w_users (created_at)',
        'create index w_posts_user_id on w_posts (user_id)',
        'create index w_posts_views on w_posts (views)',
        'create index w_posts_title on w_posts (title)',
        'create index w_posts_created_at on w_posts (created_at)',
        'create index w_comments_post_id on w_comments (post_id)',
        'create index w_comments_body on w_comments (body)',
      ])
        await db.raw(statement)
      await analyze(db, dialect, TABLES)
      log(
        `  generated worst on ${dialect} (${WORST_SPEC.users} users, ${WORST_SPEC.posts} posts, ${WORST_SPEC.comments} comments) in ${((performance.now() - start) / 1000).toFixed(1)} s`,
      )
    },
  }
}
