import { performance } from 'node:perf_hooks'
import type { RelationMap } from '../../lib/relation-map.ts'
import type { BenchDialect } from '../data/bench-servers.ts'
import { analyze, bulkLoad, type DatasetRecipe } from '../data/ensure-dataset.ts'

/** Posts of figure 15's data set: a page at depth 1,000,000 needs a million rows before it. */
export const CURSOR_POSTS = 1_000_100
const USERS = 20_000
/** Comments on every 10th post. */
const COMMENTS = 200_000
const VERSION = '1'
const TABLES = ['cur_users', 'cur_posts', 'cur_comments']

const notNull = { nullable: false } as const

/** The map of figure 15's data set, declared as its owner would (NOT NULL columns, required belongsTo). */
export const cursorBenchMap = {
  cur_users: { columns: { id: 'integer', name: { type: 'string', ...notNull } } },
  cur_posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', ...notNull },
      title: { type: 'string', ...notNull },
      published_at: 'datetime',
      created_at: { type: 'datetime', ...notNull },
    },
    relations: {
      author: { type: 'belongsTo', table: 'cur_users', foreignKey: 'user_id', required: true },
      comments: { type: 'hasMany', table: 'cur_comments', foreignKey: 'post_id' },
    },
  },
  cur_comments: { columns: { id: 'integer', post_id: { type: 'integer', ...notNull } } },
} satisfies RelationMap

function schemaSql(dialect: BenchDialect): string[] {
  const id = dialect === 'mysql' ? 'int' : 'integer'
  const text = dialect === 'mysql' ? 'varchar(100)' : 'text'
  const at = dialect === 'postgres' ? 'timestamptz' : dialect === 'mysql' ? 'datetime' : 'text'
  return [
    `create table cur_users (id ${id} not null primary key, name ${text} not null)`,
    `create table cur_posts (id ${id} not null primary key, user_id ${id} not null, title ${text} not null, published_at ${at} null, created_at ${at} not null)`,
    `create table cur_comments (id ${id} not null primary key, post_id ${id} not null)`,
  ]
}

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
  const at = (seconds: string): string =>
    pg
      ? `(timestamptz '2020-01-01 00:00:00+00' + (${seconds}) * interval '1 second')`
      : my
        ? `(timestamp '2020-01-01 00:00:00' + interval (${seconds}) second)`
        : `datetime('2020-01-01 00:00:00', '+' || (${seconds}) || ' seconds')`
  return [
    series(USERS, `insert into cur_users (id, name) select g, 'user ' || (${hash(2654435761)} % 5000) FROM_SERIES`),
    series(
      CURSOR_POSTS,
      `insert into cur_posts (id, user_id, title, published_at, created_at)
       select g, ${hash(2246822519)} % ${USERS} + 1, 'Post ' || g,
              case when g % 3 = 0 then null else ${at(`${hash(2654435761)} % 31536000`)} end, ${at(`g * 30 + ${hash(3266489917)} % 600`)}
       FROM_SERIES`,
    ),
    series(
      COMMENTS,
      `insert into cur_comments (id, post_id) select g, (${hash(2654435761)} % ${Math.floor(CURSOR_POSTS / 10)} + 1) * 10 FROM_SERIES`,
    ),
  ]
}

/** The indexes an expert creates for these keyset pages: each order with the key after it. */
function indexSql(dialect: BenchDialect): string[] {
  return [
    'create index cur_posts_created_at on cur_posts (created_at, id)',
    `create index cur_posts_published_at on cur_posts (${dialect === 'postgres' ? 'published_at desc nulls last, id desc' : 'published_at, id'})`,
    'create index cur_posts_user_id on cur_posts (user_id, id)',
    'create index cur_users_name on cur_users (name, id)',
    'create index cur_comments_post_id on cur_comments (post_id)',
  ]
}

/** Figure 15's data set (`kqp_bench_cursor`): 20,000 users, 1,000,100 posts, 200,000 comments, on every database. */
export function cursorRecipe(): DatasetRecipe {
  return {
    name: 'cursor',
    fingerprint: () => `cursor ${VERSION}:${USERS}/${CURSOR_POSTS}/${COMMENTS}`,
    async build(db, dialect, log) {
      const start = performance.now()
      for (const statement of schemaSql(dialect)) await db.raw(statement)
      await bulkLoad(db, dialect, rowsSql(dialect))
      const loaded = performance.now()
      for (const statement of indexSql(dialect)) await db.raw(statement)
      await analyze(db, dialect, TABLES)
      log(
        `  generated cursor on ${dialect} (${CURSOR_POSTS} posts): rows ${((loaded - start) / 1000).toFixed(1)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      )
    },
  }
}
