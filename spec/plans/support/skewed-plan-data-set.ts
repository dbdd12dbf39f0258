import type { Knex } from 'knex'
import type { RelationMap } from '../../../lib/relation-map.ts'
import type { TestDatabaseName } from '../../support/databases.ts'

/** Rows in `skew_posts`. */
export const SKEW_POSTS = 20_000
/** Every `RARE_EVERY`-th post has the tag `rare` (8 posts, spread over the whole table). */
export const RARE_EVERY = 2_500
const TAGS = 1_000

/** The relation map of the skewed plan data set, tag names declared `unique`, as an expert's map would. */
export const skewPlanMap = {
  skew_posts: {
    columns: { id: 'integer', created_at: { type: 'datetime', nullable: false } },
    relations: {
      tags: {
        type: 'belongsToMany',
        table: 'skew_tags',
        pivotTable: 'skew_post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  skew_tags: { columns: { id: 'integer', name: { type: 'string', nullable: false, unique: true } } },
} satisfies RelationMap

const TABLES = ['skew_post_tag', 'skew_tags', 'skew_posts']

const stamp = (seconds: number): string =>
  new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')

/**
 * Creates the skewed plan data set in tables of its own: `skew_posts` (20,000), `skew_tags` (`common` on every
 * other post, `rare` on 8, each post one of `tag 1`…`tag 1000`, about 20 posts each: the average tag is common enough
 * that a planner guessing from averages walks the base table's primary key), the pivot `skew_post_tag` with primary
 * key `(post_id, tag_id)` and the expert's index `(tag_id, post_id)`, then the database's statistics.
 */
export async function createSkewPlanDataSet(db: Knex, name: TestDatabaseName): Promise<void> {
  await dropSkewPlanDataSet(db)
  await db.schema.createTable('skew_posts', (table) => {
    table.increments('id')
    table.datetime('created_at').notNullable()
    table.index(['created_at', 'id'], 'skew_posts_created_at')
  })
  await db.schema.createTable('skew_tags', (table) => {
    table.increments('id')
    table.string('name', 20).notNullable()
    table.unique(['name'], { indexName: 'skew_tags_name' })
  })
  await db.schema.createTable('skew_post_tag', (table) => {
    table.integer('post_id').unsigned().notNullable()
    table.integer('tag_id').unsigned().notNullable()
    table.primary(['post_id', 'tag_id'])
    table.index(['tag_id', 'post_id'], 'skew_post_tag_tag_id')
  })
  await db.batchInsert(
    'skew_posts',
    Array.from({ length: SKEW_POSTS }, (_, index) => ({ created_at: stamp(((index * 7919) % SKEW_POSTS) * 60) })),
    500,
  )
  const names = ['common', 'rare', ...Array.from({ length: TAGS }, (_, index) => `tag ${index + 1}`)]
  await db.batchInsert(
    'skew_tags',
    names.map((tag) => ({ name: tag })),
    500,
  )
  const links: Array<{ post_id: number; tag_id: number }> = []
  for (let post = 1; post <= SKEW_POSTS; post++) {
    if (post % 2 === 0) links.push({ post_id: post, tag_id: 1 })
    if (post % RARE_EVERY === 0) links.push({ post_id: post, tag_id: 2 })
    links.push({ post_id: post, tag_id: 3 + ((post * 31) % TAGS) })
  }
  await db.batchInsert('skew_post_tag', links, 500)
  await db.raw(name === 'mysql' ? `analyze table ${TABLES.join(', ')}` : 'analyze')
}

/** Drops the skewed plan data set's tables. */
export async function dropSkewPlanDataSet(db: Knex): Promise<void> {
  for (const table of TABLES) await db.schema.dropTableIfExists(table)
}
