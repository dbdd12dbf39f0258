import { performance } from 'node:perf_hooks'
import type { BenchDialect } from '../data/bench-servers.ts'
import { analyze, bulkLoad, type DatasetRecipe } from '../data/ensure-dataset.ts'
import {
  indexSql as scaleIndexSql,
  POST_KINDS,
  SCALE_TABLES,
  scaleColumnTypes,
  scaleSchemaSql,
  scaleSpec,
  type ScaleSpec,
} from '../scale/scale-dataset.ts'

/** Bump when the schema, the indexes or the generated rows change, so cached databases are rebuilt. */
const SKEWED_VERSION = '1'

/**
 * Buckets of the rank table: a value of rank `k` (1 = the most common) owns about `k^-ZIPF_EXPONENT / H`
 * of them, at least one, so a row whose hash falls in the bucket gets that rank.
 */
const BUCKETS = 65_536
const ZIPF_EXPONENT = 1.3

/** The sizes of figure 6's scale data set (1M posts on SQLite and MariaDB, 2M on PostgreSQL). */
export function skewedSpec(dialect: BenchDialect): ScaleSpec {
  return scaleSpec(dialect)
}

/** Figure 6's schema (`bench/scale/scale-dataset.ts`) and the rank table the Zipf values are drawn from. */
function schemaSql(dialect: BenchDialect): string[] {
  return [
    ...scaleSchemaSql(dialect),
    `create table skew_rank (bucket ${scaleColumnTypes(dialect).id} not null primary key, rank_of ${scaleColumnTypes(dialect).id} not null)`,
  ]
}

/** How many buckets each of `values` ranks owns: Zipf weights, at least one each, rank 1 taking the rest. */
export function zipfBuckets(values: number): number[] {
  const weights = Array.from({ length: values }, (_, index) => (index + 1) ** -ZIPF_EXPONENT)
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const counts = weights.map((weight) => Math.max(1, Math.round((weight / total) * BUCKETS)))
  counts[0] = BUCKETS - counts.slice(1).reduce((sum, count) => sum + count, 0)
  return counts
}

/** The rank table's rows as `insert … values` statements (4,096 rows each). */
function rankRowsSql(values: number): string[] {
  const rows: string[] = []
  zipfBuckets(values).forEach((count, index) => {
    for (let i = 0; i < count; i++) rows.push(`(${rows.length}, ${index + 1})`)
  })
  const statements: string[] = []
  for (let start = 0; start < rows.length; start += 4096)
    statements.push(`insert into skew_rank (bucket, rank_of) values ${rows.slice(start, start + 4096).join(', ')}`)
  return statements
}

/**
 * Set-based, deterministic rows. Teams per user and tags per post follow the rank table (Zipf, exponent 1.3
 * over 1,000 values: `Team 1` and `tag 1` hold about 28% of users and posts, `Team 1000` and `tag 1000` a
 * few rows); posts per author follow the cube of a uniform hash (user 1 writes about 2% of the posts, the
 * last users a few each). Dates, kinds and comments are those of the scale data set.
 */
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
  const div = my ? 'div' : '/'
  const at = (seconds: string): string =>
    pg
      ? `(timestamptz '2020-01-01 00:00:00+00' + (${seconds}) * interval '1 second')`
      : my
        ? `(timestamp '2020-01-01 00:00:00' + interval (${seconds}) second)`
        : `datetime('2020-01-01 00:00:00', '+' || (${seconds}) || ' seconds')`
  const kind = `case ${hash(3266489917)} % 4 ${POST_KINDS.map((value, index) => `when ${index} then '${value}'`).join(' ')} end`
  const created = `g * 30 + ${hash(2246822519)} % 600`
  // floor(users · u³) for u uniform in [0, 1) at a resolution of 10⁶, in integer arithmetic.
  const x = `(${hash(2654435761)} % 1000000)`
  // A lookup by primary key per row: a join would meet the rank table before it has statistics (MariaDB scans it per row).
  const rankOf = (bucketHash: string): string =>
    `(select z.rank_of from skew_rank z where z.bucket = ${bucketHash} % ${BUCKETS})`
  const author = `((${x} * ${x} ${div} 1000000) * ${x} ${div} 1000000) * ${spec.users} ${div} 1000000 + 1`
  return [
    ...rankRowsSql(spec.teams),
    series(
      spec.teams,
      `insert into teams (id, name, created_at) select g, 'Team ' || g, ${at('g * 3600')} FROM_SERIES`,
    ),
    series(
      spec.users,
      `insert into users (id, team_id, name, email, created_at)
       select g, ${rankOf(hash(2246822519))}, 'user ' || ${hash(2654435761)}, 'user' || g || '@example.com', ${at('g * 60')} FROM_SERIES`,
    ),
    series(
      spec.posts,
      `insert into posts (id, user_id, title, kind, published_at, views, created_at)
       select g, ${author}, 'Post ' || g, ${kind},
              case when g % 3 = 0 then null else ${at(`g * 30 + ${hash(2654435761)} % 2592000`)} end, g % 1000, ${at(created)}
       FROM_SERIES`,
    ),
    series(spec.tags, `insert into tags (id, name) select g, 'tag ' || g FROM_SERIES`),
    series(spec.posts, `insert into post_tag (post_id, tag_id) select g, ${rankOf(hash(3266489917))} FROM_SERIES`),
    series(
      spec.comments,
      `insert into comments (id, post_id, body, created_at)
       select g, (${hash(2654435761)} % ${Math.floor(spec.posts / 20)} + 1) * 20, 'comment ' || g, ${at('g * 10')} FROM_SERIES`,
    ),
    'drop table skew_rank',
  ]
}

/** Figure 6's expert indexes (among them the pivot's `(tag_id, post_id)` and the unique tag names), plus users newest first. */
export function skewedIndexSql(dialect: BenchDialect): string[] {
  return [...scaleIndexSql(dialect), 'create index users_created_at on users (created_at, id)']
}

/** Figure 13's data set: figure 6's schema and sizes with skewed values, then the expert's indexes and statistics. */
export function skewedRecipe(): DatasetRecipe {
  return {
    name: 'skewed',
    fingerprint: (dialect) => {
      const spec = skewedSpec(dialect)
      return `skewed ${SKEWED_VERSION}:${spec.teams}/${spec.users}/${spec.posts}/${spec.tags}/${spec.comments} zipf ${ZIPF_EXPONENT}/${BUCKETS}`
    },
    async build(db, dialect, log) {
      const start = performance.now()
      const spec = skewedSpec(dialect)
      for (const statement of schemaSql(dialect)) await db.raw(statement)
      await bulkLoad(db, dialect, rowsSql(dialect, spec))
      const loaded = performance.now()
      await db.transaction(async (trx) => {
        if (dialect === 'mysql') await trx.raw('set foreign_key_checks = 0')
        for (const statement of skewedIndexSql(dialect)) await trx.raw(statement)
        if (dialect === 'mysql') await trx.raw('set foreign_key_checks = 1')
      })
      await analyze(db, dialect, SCALE_TABLES)
      log(
        `  generated skewed on ${dialect} (${spec.users} users, ${spec.posts} posts and post_tag rows, ${spec.comments} comments): rows ${((loaded - start) / 1000).toFixed(1)} s, indexes + statistics ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
      )
    },
  }
}
