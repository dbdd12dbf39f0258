import type { Knex } from 'knex'
import type { RelationMap } from '../../../lib/relation-map.ts'

/** Rows of `pg_posts`: enough for filtered pages past the deferred-page offsets (300 on MariaDB, 1,000 on SQLite). */
export const PAGE_POSTS = 3_000
const USERS = 60
const TEAMS = 6
const TAGS = 12

const notNull = { nullable: false } as const

/**
 * The relation map of the page data set: `author` is a required belongsTo (an inner join), `editor` an
 * optional one (a left join, NULL for a third of the posts), author names repeat (ties at page boundaries),
 * tag and team names are unique.
 */
export const pageMap = {
  pg_teams: { columns: { id: 'integer', name: { type: 'string', ...notNull, unique: true } } },
  pg_users: {
    columns: {
      id: 'integer',
      team_id: { type: 'integer', ...notNull },
      name: { type: 'string', ...notNull },
      hidden: { type: 'boolean', ...notNull },
    },
    relations: { team: { type: 'belongsTo', table: 'pg_teams', foreignKey: 'team_id', required: true } },
  },
  pg_posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', ...notNull },
      editor_id: 'integer',
      kind: { type: 'string', ...notNull },
      title: { type: 'string', ...notNull },
      created_at: { type: 'datetime', ...notNull },
    },
    relations: {
      author: { type: 'belongsTo', table: 'pg_users', foreignKey: 'user_id', required: true },
      editor: { type: 'belongsTo', table: 'pg_users', foreignKey: 'editor_id' },
      tags: {
        type: 'belongsToMany',
        table: 'pg_tags',
        pivotTable: 'pg_post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  pg_tags: { columns: { id: 'integer', name: { type: 'string', ...notNull, unique: true } } },
} satisfies RelationMap

/** {@link pageMap} with a guard on `pg_posts` (`kind <> 'draft'`) and on `pg_users` (`hidden = false`). */
export const guardedPageMap: RelationMap = {
  ...pageMap,
  pg_posts: { ...pageMap.pg_posts, guard: (query) => query.whereNot('kind', 'draft') },
  pg_users: { ...pageMap.pg_users, guard: (query) => query.where('hidden', false) },
}

const TABLES = ['pg_post_tag', 'pg_tags', 'pg_posts', 'pg_users', 'pg_teams']
const KINDS = ['note', 'review', 'draft', 'news']

const stamp = (minutes: number): string =>
  new Date(Date.UTC(2024, 0, 1) + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ')

/**
 * Creates the page data set in tables of its own: 6 teams, 60 users (12 distinct names, one user in 7
 * hidden), 3,000 posts (`created_at` with ties, 8 of kind `rare`), 2 tags per post.
 */
export async function createPageDataSet(db: Knex): Promise<void> {
  await dropPageDataSet(db)
  await db.schema.createTable('pg_teams', (table) => {
    table.increments('id')
    table.string('name', 20).notNullable().unique()
  })
  await db.schema.createTable('pg_users', (table) => {
    table.increments('id')
    table.integer('team_id').unsigned().notNullable()
    table.string('name', 20).notNullable().index()
    table.boolean('hidden').notNullable()
  })
  await db.schema.createTable('pg_posts', (table) => {
    table.increments('id')
    table.integer('user_id').unsigned().notNullable().index()
    table.integer('editor_id').unsigned().nullable()
    table.string('kind', 10).notNullable()
    table.string('title', 40).notNullable()
    table.datetime('created_at').notNullable().index()
  })
  await db.schema.createTable('pg_tags', (table) => {
    table.increments('id')
    table.string('name', 20).notNullable().unique()
  })
  await db.schema.createTable('pg_post_tag', (table) => {
    table.integer('post_id').unsigned().notNullable()
    table.integer('tag_id').unsigned().notNullable()
    table.primary(['post_id', 'tag_id'])
  })
  await db.batchInsert(
    'pg_teams',
    Array.from({ length: TEAMS }, (_, index) => ({ name: `team ${index + 1}` })),
    100,
  )
  const users = Array.from({ length: USERS }, (_, index) => ({
    team_id: 1 + (index % TEAMS),
    name: `user ${(index * 7) % 12}`,
    hidden: index % 7 === 3,
  }))
  await db.batchInsert('pg_users', users, 100)
  const posts = Array.from({ length: PAGE_POSTS }, (_, index) => ({
    user_id: 1 + ((index * 13) % USERS),
    editor_id: index % 3 === 0 ? null : 1 + ((index * 7) % USERS),
    kind: index < 1_200 && index % 150 === 7 ? 'rare' : (KINDS[index % KINDS.length] ?? 'note'),
    title: `post ${index + 1}`,
    created_at: stamp(((index * 389) % PAGE_POSTS) - (index % 5 === 0 ? 1 : 0)),
  }))
  await db.batchInsert('pg_posts', posts, 200)
  await db.batchInsert(
    'pg_tags',
    Array.from({ length: TAGS }, (_, index) => ({ name: `tag ${index + 1}` })),
    100,
  )
  const links = Array.from({ length: PAGE_POSTS }, (_, index) => [
    { post_id: index + 1, tag_id: 1 + (index % TAGS) },
    {
      post_id: index + 1,
      tag_id:
        1 + ((index * 5 + 1) % TAGS) === 1 + (index % TAGS) ? 1 + ((index + 1) % TAGS) : 1 + ((index * 5 + 1) % TAGS),
    },
  ]).flat()
  await db.batchInsert('pg_post_tag', links, 200)
}

/** Drops the page data set's tables. */
export async function dropPageDataSet(db: Knex): Promise<void> {
  for (const table of TABLES) await db.schema.dropTableIfExists(table)
}
