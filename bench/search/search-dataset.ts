import { performance } from 'node:perf_hooks'
import type { BenchDialect } from '../data/bench-servers.ts'
import { analyze, bulkLoad, type DatasetRecipe } from '../data/ensure-dataset.ts'
import { FULLTEXT_SQL } from '../../lib/dialect/fulltext-sql.ts'

/** Bump when the schema, the indexes or the generated rows change, so cached databases are rebuilt. */
const SEARCH_VERSION = '1'

/** How many rows the search data set has: `SEARCH_BENCH_POSTS` posts (default 1M) by 100,000 users. */
export function searchSpec(): { users: number; posts: number } {
  const posts = Number(process.env.SEARCH_BENCH_POSTS ?? 1_000_000)
  return { users: Math.max(1000, Math.floor(posts / 10)), posts }
}

/**
 * The words of the generated text: `common` in every 10th post's title, `rare` in every 10,000th post's body,
 * `alpha` in every 7th post's body, `zed` in the name of every 1,000th user; the rest is `word<n>` for n below
 * 5,000 from multiplicative hashes of the id.
 */
export const SEARCH_WORDS = { common: 'common', rare: 'rare', second: 'alpha', author: 'zed' } as const

/** The tables; the expert's search indexes come after the rows ({@link searchIndexSql}). */
function schemaSql(dialect: BenchDialect): string[] {
  const id = dialect === 'mysql' ? 'int' : 'integer'
  const short = dialect === 'mysql' ? 'varchar(200)' : 'text'
  return [
    `create table users (id ${id} not null primary key, name ${short} not null)`,
    `create table posts (id ${id} not null primary key, user_id ${id} not null, title ${short} not null, body text not null)`,
  ]
}

function rowsSql(dialect: BenchDialect, spec: { users: number; posts: number }): string[] {
  const pg = dialect === 'postgres'
  const my = dialect === 'mysql'
  const series = (count: number, select: string): string =>
    pg
      ? select.replace('FROM_SERIES', `from generate_series(1, ${count}) as s(g)`)
      : my
        ? select.replace('FROM_SERIES', `from (select seq as g from seq_1_to_${count}) as s`)
        : `with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) ${select.replace('FROM_SERIES', 'from s')}`
  const hash = (multiplier: number): string => `((${pg ? 'g::bigint' : 'g'} * ${multiplier}) % 4294967296)`
  const word = (multiplier: number, shift: number): string => `'word' || ((${hash(multiplier)} + ${shift}) % 5000)`
  const { common, rare, second, author } = SEARCH_WORDS
  return [
    series(
      spec.users,
      `insert into users (id, name) select g, 'user ' || ${word(2654435761, 0)} || case when g % 1000 = 3 then ' ${author}' else '' end FROM_SERIES`,
    ),
    series(
      spec.posts,
      `insert into posts (id, user_id, title, body)
       select g, ${hash(2246822519)} % ${spec.users} + 1,
              ${word(2654435761, 1)} || ' ' || ${word(3266489917, 2)} || case when g % 10 = 0 then ' ${common}' else '' end,
              ${word(2246822519, 3)} || ' ' || ${word(2654435761, 4)} || ' ' || ${word(3266489917, 5)} || ' ' || ${word(2246822519, 6)}
                || case when g % 7 = 0 then ' ${second}' else '' end || case when g % 10000 = 1 then ' ${rare}' else '' end
       FROM_SERIES`,
    ),
  ]
}

/**
 * The indexes an expert creates for the searches: on PostgreSQL the GIN expression index of `simple` text search
 * and pg_trgm GIN indexes of the three searched columns (for `like '%…%'`); on MariaDB a FULLTEXT index (no index
 * serves `like '%…%'` there); on SQLite the FTS5 external-content table, filled. Plus the author key.
 */
export function searchIndexSql(dialect: BenchDialect): string[] {
  const statements = [
    'create index posts_user_id on posts (user_id)',
    FULLTEXT_SQL[dialect].index('posts', ['title', 'body'], { language: 'simple', fts: 'posts_fts', key: 'id' }),
  ]
  if (dialect === 'postgres') {
    statements.push(
      'create extension if not exists pg_trgm',
      'create index posts_title_trgm on posts using gin (title gin_trgm_ops)',
      'create index posts_body_trgm on posts using gin (body gin_trgm_ops)',
      'create index users_name_trgm on users using gin (name gin_trgm_ops)',
    )
  }
  if (dialect === 'sqlite') statements.push(`insert into posts_fts(posts_fts) values ('rebuild')`)
  return statements
}

/** Figure 14's data set: users and posts with generated text, then the expert's search indexes and statistics. */
export function searchRecipe(): DatasetRecipe {
  return {
    name: 'search',
    fingerprint: () => {
      const spec = searchSpec()
      return `search ${SEARCH_VERSION}:${spec.users}/${spec.posts}`
    },
    async build(db, dialect, log) {
      const start = performance.now()
      const spec = searchSpec()
      for (const statement of schemaSql(dialect)) await db.raw(statement)
      await bulkLoad(db, dialect, rowsSql(dialect, spec))
      const loaded = performance.now()
      for (const statement of searchIndexSql(dialect)) await db.raw(statement)
      await analyze(db, dialect, ['users', 'posts'])
      log(
        `  generated search on ${dialect} (${spec.users} users, ${spec.posts} posts): rows ${((loaded - start) / 1000).toFixed(1)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      )
    },
  }
}
