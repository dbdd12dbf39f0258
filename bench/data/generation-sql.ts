import type { BenchDialect } from './bench-servers.ts'
import { COMMENT_PHRASES, TOPICS, type DatasetSpec } from './dataset-spec.ts'

/**
 * Set-based SQL that fills the demo tables (already migrated, empty) with a data set: one
 * `INSERT … SELECT` per table over `generate_series` (PostgreSQL) or a recursive CTE (SQLite), so a
 * million rows take seconds. Deterministic: the same spec gives the same rows on both databases.
 * Pseudo-random choices are multiplicative hashes of the id (`id · 2654435761 mod 2³²`).
 */
export function generationSql(dialect: BenchDialect, spec: DatasetSpec): string[] {
  const pg = dialect === 'postgres'
  const my = dialect === 'mysql'
  const series = (count: number, select: string): string =>
    pg
      ? `${select.replace('FROM_SERIES', `from generate_series(1, ${count}) as s(g)`)}`
      : my
        ? select.replace('FROM_SERIES', `from (select seq as g from seq_1_to_${count}) as s`)
        : `with recursive s(g) as (select 1 union all select g + 1 from s where g < ${count}) ${select.replace('FROM_SERIES', 'from s')}`
  const big = pg ? 'g::bigint' : 'g'
  const hash = (multiplier: number): string => `((${big} * ${multiplier}) % 4294967296)`
  const bool = (condition: string): string =>
    pg || my ? `(${condition})` : `(case when ${condition} then 1 else 0 end)`
  const at = (minutes: string): string =>
    pg
      ? `(timestamptz '2020-01-01 00:00:00+00' + (${minutes}) * interval '1 minute')`
      : my
        ? `(timestamp '2020-01-01 00:00:00' + interval (${minutes}) minute)`
        : `datetime('2020-01-01 00:00:00', '+' || (${minutes}) || ' minutes')`
  const day = (days: string): string =>
    pg
      ? `(date '1960-01-01' + (${days})::int)`
      : my
        ? `(date '1960-01-01' + interval (${days}) day)`
        : `date('1960-01-01', '+' || (${days}) || ' days')`
  const topicValues = TOPICS.map((topic, index) => `(${index}, '${topic}')`).join(', ')

  const statements = [
    pg
      ? 'create temporary table topics (n integer primary key, word text not null) on commit drop'
      : 'create temporary table topics (n integer primary key, word text not null)',
    `insert into topics (n, word) values ${topicValues}`,
    series(
      spec.teams,
      `insert into teams (id, name, owner_id, created_at, updated_at) select g, 'Team ' || g, null, ${at('g')}, ${at('g')} FROM_SERIES`,
    ),
    series(
      spec.users,
      `insert into users (id, team_id, name, email, password, is_admin, birthday, score, created_at, updated_at)
       select g, case when g % 20 = 0 then null else (g % ${spec.teams}) + 1 end, 'User ' || g, 'user' || g || '@example.com', 'secret',
              ${bool('g % 10 = 0')}, ${day('g % 15000')}, ((g * 37) % 1000) / 10.0, ${at('g')}, ${at('g + 1440')} FROM_SERIES`,
    ),
    series(
      spec.posts,
      `insert into posts (id, user_id, title, body, published, published_at, views, rating, created_at, updated_at)
       select g, ((g - 1) % ${spec.users}) + 1, 'Post ' || g || ' about ' || topics.word, 'Body of post ' || g || ', about ' || topics.word || '.',
              ${bool('g % 3 <> 0')}, case when g % 3 <> 0 then ${at('g')} else null end, g % 1000,
              case when g % 7 = 0 then null else (g % 50) / 10.0 end, ${at('g')}, ${at('g')}
       FROM_SERIES join topics on topics.n = ${hash(2654435761)} % ${TOPICS.length}`,
    ),
    series(
      spec.comments,
      `insert into comments (id, post_id, user_id, body, created_at, updated_at)
       select g, ((g - 1) % ${spec.posts}) + 1, ${hash(2246822519)} % ${spec.users} + 1, 'comment ' || (${hash(3266489917)} % ${COMMENT_PHRASES}),
              ${at('g')}, ${at('g')} FROM_SERIES`,
    ),
  ]
  if (!pg) statements.push(my ? 'drop temporary table topics' : 'drop table topics')
  if (pg) {
    for (const table of ['teams', 'users', 'posts', 'comments']) {
      statements.push(
        `select setval(pg_get_serial_sequence('${table}', 'id'), (select coalesce(max(id), 1) from ${table}))`,
      )
    }
  }
  return statements
}
