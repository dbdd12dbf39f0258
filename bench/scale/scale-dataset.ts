import { performance } from 'node:perf_hooks'
import type { BenchDialect } from '../data/bench-servers.ts'
import { analyze, bulkLoad, type DatasetRecipe } from '../data/ensure-dataset.ts'

/** How many rows figure 6's data set has on one database. */
export interface ScaleSpec {
  teams: number
  users: number
  /** Also the rows of `post_tag` (one tag per post). */
  posts: number
  tags: number
  /** Spread over every 20th post, so 5% of the posts have comments. */
  comments: number
}

/** Bump when the schema, the indexes or the generated rows change, so cached databases are rebuilt. */
const SCALE_VERSION = '1'

/** 1M posts on SQLite and MariaDB, 2M on PostgreSQL; 1M comments everywhere. */
export function scaleSpec(dialect: BenchDialect): ScaleSpec {
  return {
    teams: 1_000,
    users: 100_000,
    posts: dialect === 'postgres' ? 2_000_000 : 1_000_000,
    tags: 1_000,
    comments: 1_000_000,
  }
}

/** Values of `posts.kind`, each in about a quarter of the posts. */
export const POST_KINDS = ['article', 'news', 'review', 'video'] as const

/** The tables of the scale schema (also the skewed data set's). */
export const SCALE_TABLES = ['teams', 'users', 'posts', 'tags', 'post_tag', 'comments'] as const

/** The column types of the scale schema on each database. */
export function scaleColumnTypes(dialect: BenchDialect): { id: string; text: string; at: string } {
  if (dialect === 'postgres') return { id: 'integer', text: 'text', at: 'timestamptz' }
  if (dialect === 'mysql') return { id: 'int', text: 'varchar(100)', at: 'datetime' }
  return { id: 'integer', text: 'text', at: 'text' }
}

/**
 * The tables, with every key an application declares (primary keys, NOT NULL, foreign keys, which
 * SQLite can only declare inline). Secondary indexes come after the rows ({@link indexSql}).
 */
export function scaleSchemaSql(dialect: BenchDialect): string[] {
  const { id, text, at } = scaleColumnTypes(dialect)
  const fk = (column: string, table: string): string =>
    dialect === 'sqlite' ? `, foreign key (${column}) references ${table} (id)` : ''
  return [
    `create table teams (id ${id} not null primary key, name ${text} not null, created_at ${at} not null)`,
    `create table users (id ${id} not null primary key, team_id ${id} not null, name ${text} not null, email ${text} not null, created_at ${at} not null${fk('team_id', 'teams')})`,
    `create table posts (id ${id} not null primary key, user_id ${id} not null, title ${text} not null, kind ${text} not null, published_at ${at} null, views ${id} not null, created_at ${at} not null${fk('user_id', 'users')})`,
    `create table tags (id ${id} not null primary key, name ${text} not null)`,
    `create table post_tag (post_id ${id} not null, tag_id ${id} not null, primary key (post_id, tag_id)${fk('post_id', 'posts')}${fk('tag_id', 'tags')})`,
    `create table comments (id ${id} not null primary key, post_id ${id} not null, body ${text} not null, created_at ${at} not null${fk('post_id', 'posts')})`,
  ]
}

/** Set-based, deterministic rows (multiplicative hashes of the id), the same on every database. */
function rowsSql(dialect: BenchDialect, spec: ScaleSpec): string[] {
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
  const kind = `case ${hash(3266489917)} % 4 ${POST_KINDS.map((value, index) => `when ${index} then '${value}'`).join(' ')} end`
  const created = `g * 30 + ${hash(2246822519)} % 600`
  return [
    series(
      spec.teams,
      `insert into teams (id, name, created_at) select g, 'Team ' || g, ${at('g * 3600')} FROM_SERIES`,
    ),
    series(
      spec.users,
      `insert into users (id, team_id, name, email, created_at)
       select g, ${hash(2246822519)} % ${spec.teams} + 1, 'user ' || ${hash(2654435761)}, 'user' || g || '@example.com', ${at('g * 60')} FROM_SERIES`,
    ),
    series(
      spec.posts,
      `insert into posts (id, user_id, title, kind, published_at, views, created_at)
       select g, ${hash(2654435761)} % ${spec.users} + 1, 'Post ' || g, ${kind},
              case when g % 3 = 0 then null else ${at(`g * 30 + ${hash(2654435761)} % 2592000`)} end, g % 1000, ${at(created)}
       FROM_SERIES`,
    ),
    series(spec.tags, `insert into tags (id, name) select g, 'tag ' || g FROM_SERIES`),
    series(
      spec.posts,
      `insert into post_tag (post_id, tag_id) select g, ${hash(2246822519)} % ${spec.tags} + 1 FROM_SERIES`,
    ),
    series(
      spec.comments,
      `insert into comments (id, post_id, body, created_at)
       select g, (${hash(2654435761)} % ${Math.floor(spec.posts / 20)} + 1) * 20, 'comment ' || g, ${at('g * 10')} FROM_SERIES`,
    ),
  ]
}

/**
 * The indexes an expert creates for figure 6's queries (documented in BENCHMARKS.md). On PostgreSQL the
 * nullable `published_at` is indexed as `desc nulls last`, the order in which a descending page reads it
 * when NULLs sort as the smallest values; InnoDB and SQLite sort NULLs first ascending, so a plain index
 * read backwards serves it. InnoDB and SQLite secondary indexes end with the primary key anyway.
 */
export function indexSql(dialect: BenchDialect): string[] {
  const publishedAt = dialect === 'postgres' ? 'published_at desc nulls last, id desc' : 'published_at, id'
  const statements = [
    'create unique index teams_name on teams (name)',
    'create index users_team_id on users (team_id)',
    'create index users_name on users (name)',
    'create unique index users_email on users (email)',
    'create index posts_created_at on posts (created_at, id)',
    'create index posts_kind_created_at on posts (kind, created_at, id)',
    `create index posts_published_at on posts (${publishedAt})`,
    'create index posts_user_id_created_at on posts (user_id, created_at)',
    'create unique index tags_name on tags (name)',
    'create index post_tag_tag_id on post_tag (tag_id, post_id)',
    'create index comments_post_id on comments (post_id)',
  ]
  if (dialect !== 'sqlite') {
    const fk = (table: string, column: string, target: string): string =>
      `alter table ${table} add constraint ${table}_${column}_fk foreign key (${column}) references ${target} (id)`
    statements.push(
      fk('users', 'team_id', 'teams'),
      fk('posts', 'user_id', 'users'),
      fk('post_tag', 'post_id', 'posts'),
      fk('post_tag', 'tag_id', 'tags'),
      fk('comments', 'post_id', 'posts'),
    )
  }
  return statements
}

/** Figure 6's data set: its own schema (not the migrations'), rows, then the expert's indexes and statistics. */
export function scaleRecipe(): DatasetRecipe {
  return {
    name: 'scale',
    fingerprint: (dialect) => {
      const spec = scaleSpec(dialect)
      return `scale ${SCALE_VERSION}:${spec.teams}/${spec.users}/${spec.posts}/${spec.tags}/${spec.comments}`
    },
    async build(db, dialect, log) {
      const start = performance.now()
      const spec = scaleSpec(dialect)
      for (const statement of scaleSchemaSql(dialect)) await db.raw(statement)
      await bulkLoad(db, dialect, rowsSql(dialect, spec))
      const loaded = performance.now()
      await db.transaction(async (trx) => {
        // InnoDB adds a foreign key in place, without copying the table, only when it need not check the rows.
        if (dialect === 'mysql') await trx.raw('set foreign_key_checks = 0')
        for (const statement of indexSql(dialect)) await trx.raw(statement)
        if (dialect === 'mysql') await trx.raw('set foreign_key_checks = 1')
      })
      await analyze(db, dialect, SCALE_TABLES)
      log(
        `  generated scale on ${dialect} (${spec.users} users, ${spec.posts} posts and post_tag rows, ${spec.comments} comments): rows ${((loaded - start) / 1000).toFixed(1)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      )
    },
  }
}
