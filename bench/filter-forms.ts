/**
 * Scratch measurement behind the per-dialect relation-filter form (README, Dialect notes): the same relation
 * filters written as a correlated `EXISTS`, as `key IN (select …)` (and, for bare existence, as
 * `(select 1 … limit 1) is not null`), timed on each database over tables of
 * its own (`ff_*`: 50,000 users, 500,000 posts, 1,000,000 post_tag links, 500,000 comments).
 *
 *   npx tsx bench/filter-forms.ts sqlite|postgres|mysql [postgres://… | mysql://…]
 */
import knex, { type Knex } from 'knex'

const [, , which = 'sqlite', url] = process.argv
const USERS = 50_000
const POSTS = 500_000
const TAGS = 500

function connect(): Knex {
  if (which === 'postgres')
    return knex({ client: 'pg', connection: url ?? 'postgres://postgres@127.0.0.1:5432/kqp_sql_forms' })
  if (which === 'mysql')
    return knex({ client: 'mysql2', connection: url ?? 'mysql://root@127.0.0.1:3306/kqp_sql_forms' })
  return knex({ client: 'better-sqlite3', connection: { filename: '/tmp/kqp_sql_forms.db' }, useNullAsDefault: true })
}

const series = (n: number): string =>
  which === 'postgres'
    ? `generate_series(1::bigint, ${n}) as s(i)`
    : `(with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n}) select i from s) as s`

async function seed(db: Knex): Promise<void> {
  if (which === 'mysql') await db.raw('set session cte_max_recursion_depth = 4294967295').catch(() => undefined)
  if (which === 'mysql') await db.raw('set session max_recursive_iterations = 4294967295')
  const exists = await db.schema.hasTable('ff_comments')
  if (exists) return
  for (const t of ['ff_comments', 'ff_post_tag', 'ff_tags', 'ff_posts', 'ff_users'])
    await db.schema.dropTableIfExists(t)
  await db.raw('create table ff_users (id integer primary key, name varchar(50) not null, is_admin integer not null)')
  await db.raw(
    'create table ff_posts (id integer primary key, user_id integer not null, title varchar(80) not null, created_at integer not null)',
  )
  await db.raw('create table ff_tags (id integer primary key, name varchar(50) not null)')
  await db.raw(
    'create table ff_post_tag (post_id integer not null, tag_id integer not null, primary key (post_id, tag_id))',
  )
  await db.raw('create table ff_comments (id integer primary key, post_id integer not null, body varchar(80) not null)')
  await db.raw(
    `insert into ff_users select i, concat('user ', i), case when i % 100 = 0 then 1 else 0 end from ${series(USERS)}`
      .replace('concat(', which === 'sqlite' ? "('' || " : 'concat(')
      .replace("'user ', i", which === 'sqlite' ? "'user ' || i" : "'user ', i"),
  )
  await db.raw(
    `insert into ff_posts select i, 1 + (i * 7919) % ${USERS}, ${cat("'post '", 'i')}, i from ${series(POSTS)}`,
  )
  await db.raw(`insert into ff_tags select i, ${cat("'tag '", 'i')} from ${series(TAGS)}`)
  await db.raw(`insert into ff_post_tag select i, 1 + (i * 31) % ${TAGS} from ${series(POSTS)}`)
  await db.raw(
    `insert into ff_post_tag select i, 1 + (i * 37 + 7) % ${TAGS} from ${series(POSTS)} where (i * 37 + 7) % ${TAGS} <> (i * 31) % ${TAGS}`,
  )
  await db.raw(
    `insert into ff_comments select i, 1 + (i * 104729) % ${POSTS}, ${cat("'comment '", 'i')} from ${series(POSTS)}`,
  )
  for (const [t, c] of [
    ['ff_posts', 'user_id'],
    ['ff_posts', 'created_at'],
    ['ff_post_tag', 'tag_id'],
    ['ff_comments', 'post_id'],
    ['ff_users', 'name'],
    ['ff_tags', 'name'],
  ] as const) {
    await db.raw(`create index ${t}_${c} on ${t} (${c})`)
  }
  await db.raw(which === 'mysql' ? 'analyze table ff_users, ff_posts, ff_tags, ff_post_tag, ff_comments' : 'analyze')
}

function cat(a: string, b: string): string {
  return which === 'sqlite' ? `${a} || ${b}` : `concat(${a}, ${b})`
}

interface Case {
  name: string
  exists: string
  in: string
  nested?: string
  scalar?: string
}

const CASES: Case[] = [
  {
    name: 'belongsTo, selective (posts whose author is named)',
    exists: `select id from ff_posts p where exists (select 1 from ff_users u where u.id = p.user_id and u.name = 'user 777') order by id desc limit 20`,
    in: `select id from ff_posts p where p.user_id in (select u.id from ff_users u where u.name = 'user 777') order by id desc limit 20`,
  },
  {
    name: 'belongsTo, broad (posts of admins, 1%)',
    exists: `select id from ff_posts p where exists (select 1 from ff_users u where u.id = p.user_id and u.is_admin = 1) order by id desc limit 20`,
    in: `select id from ff_posts p where p.user_id in (select u.id from ff_users u where u.is_admin = 1) order by id desc limit 20`,
  },
  {
    name: 'hasMany, selective (users with a post titled)',
    exists: `select id from ff_users u where exists (select 1 from ff_posts p where p.user_id = u.id and p.title = 'post 4242') order by id limit 20`,
    in: `select id from ff_users u where u.id in (select p.user_id from ff_posts p where p.title = 'post 4242') order by id limit 20`,
  },
  {
    name: 'hasMany, relationsExists (users with posts)',
    exists: `select id from ff_users u where exists (select 1 from ff_posts p where p.user_id = u.id) order by id desc limit 20`,
    in: `select id from ff_users u where u.id in (select p.user_id from ff_posts p) order by id desc limit 20`,
    scalar: `select id from ff_users u where (select 1 from ff_posts p where p.user_id = u.id limit 1) is not null order by id desc limit 20`,
  },
  {
    name: 'belongsToMany, selective (posts tagged)',
    exists: `select id from ff_posts p where exists (select 1 from ff_tags t inner join ff_post_tag pt on pt.tag_id = t.id where pt.post_id = p.id and t.name = 'tag 42') order by id desc limit 20`,
    in: `select id from ff_posts p where p.id in (select pt.post_id from ff_post_tag pt inner join ff_tags t on t.id = pt.tag_id where t.name = 'tag 42') order by id desc limit 20`,
    nested: `select id from ff_posts p where p.id in (select pt.post_id from ff_post_tag pt where pt.tag_id in (select t.id from ff_tags t where t.name = 'tag 42')) order by id desc limit 20`,
  },
  {
    name: 'belongsToMany, relationsExists (posts with tags)',
    exists: `select id from ff_posts p where exists (select 1 from ff_post_tag pt where pt.post_id = p.id) order by id desc limit 20`,
    in: `select id from ff_posts p where p.id in (select pt.post_id from ff_post_tag pt) order by id desc limit 20`,
    scalar: `select id from ff_posts p where (select 1 from ff_post_tag pt where pt.post_id = p.id limit 1) is not null order by id desc limit 20`,
  },
  {
    name: 'two belongsTo hops (comments whose post author is named)',
    exists: `select id from ff_comments c where exists (select 1 from ff_posts p where p.id = c.post_id and exists (select 1 from ff_users u where u.id = p.user_id and u.name = 'user 777')) order by id desc limit 20`,
    in: `select id from ff_comments c where c.post_id in (select p.id from ff_posts p where p.user_id in (select u.id from ff_users u where u.name = 'user 777')) order by id desc limit 20`,
  },
  {
    name: 'hasMany of hasMany, selective (users with a comment on their posts)',
    exists: `select id from ff_users u where exists (select 1 from ff_posts p where p.user_id = u.id and exists (select 1 from ff_comments c where c.post_id = p.id and c.body = 'comment 99')) order by id limit 20`,
    in: `select id from ff_users u where u.id in (select p.user_id from ff_posts p where p.id in (select c.post_id from ff_comments c where c.body = 'comment 99')) order by id limit 20`,
  },
]

async function time(db: Knex, sql: string): Promise<{ ms: number; rows: string }> {
  const first = await db.raw(sql)
  const rows = JSON.stringify(rowsOf(first).map((r) => r.id))
  const runs: number[] = []
  const deadline = Date.now() + 3000
  while (runs.length < 3 || (runs.length < 30 && Date.now() < deadline)) {
    const start = performance.now()
    await db.raw(sql)
    runs.push(performance.now() - start)
  }
  runs.sort((a, b) => a - b)
  return { ms: runs[Math.floor(runs.length / 2)] ?? 0, rows }
}

function rowsOf(result: unknown): Array<{ id: unknown }> {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as Array<{ id: unknown }>
  return (result as { rows: Array<{ id: unknown }> }).rows
}

const db = connect()
try {
  await seed(db)
  console.log(`| ${which} case | EXISTS ms | IN ms | ratio EXISTS/IN | nested IN ms | scalar ms |`)
  for (const c of CASES) {
    const e = await time(db, c.exists)
    const i = await time(db, c.in)
    if (e.rows !== i.rows) throw new Error(`${c.name}: forms disagree`)
    const n = c.nested === undefined ? undefined : await time(db, c.nested)
    const v = c.scalar === undefined ? undefined : await time(db, c.scalar)
    if ((n !== undefined && n.rows !== i.rows) || (v !== undefined && v.rows !== i.rows))
      throw new Error(`${c.name}: forms disagree`)
    console.log(
      `| ${c.name} | ${e.ms.toFixed(2)} | ${i.ms.toFixed(2)} | ${(e.ms / i.ms).toFixed(2)} | ${n?.ms.toFixed(2) ?? ''} | ${v?.ms.toFixed(2) ?? ''} |`,
    )
  }
} finally {
  await db.destroy()
}
