import type { Knex } from 'knex'
import type { RelationMap } from '../../../lib/relation-map.ts'
import type { TestDatabaseName } from '../../support/databases.ts'

/** Rows in `plan_events`: enough that a whole-table sort costs the planner far more than an index walk. */
export const EVENTS = 40_000
const TAGS = 400
const KINDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']

/** The relation map of the plan data set: every NOT NULL column declared, as an expert's map would. */
export const planMap = {
  plan_events: {
    columns: {
      id: 'integer',
      kind: { type: 'string', nullable: false },
      created_at: { type: 'datetime', nullable: false },
      published_at: 'datetime',
    },
    relations: {
      tags: {
        type: 'belongsToMany',
        table: 'plan_tags',
        pivotTable: 'plan_event_tag',
        foreignPivotKey: 'event_id',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  plan_tags: { columns: { id: 'integer', name: { type: 'string', nullable: false, unique: true } } },
} satisfies RelationMap

const TABLES = ['plan_event_tag', 'plan_tags', 'plan_events']

const stamp = (seconds: number): string =>
  new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')

/**
 * Creates the plan data set in tables of its own (`plan_events` 40,000 rows, `plan_tags` 400, `plan_event_tag`
 * 80,000 links), with the indexes an expert would create for newest-first lists, then lets the database
 * gather statistics (`ANALYZE`).
 */
export async function createPlanDataSet(db: Knex, name: TestDatabaseName): Promise<void> {
  await dropPlanDataSet(db)
  await db.schema.createTable('plan_events', (table) => {
    table.increments('id')
    table.string('kind', 8).notNullable()
    table.datetime('created_at').notNullable()
    table.datetime('published_at').nullable()
    table.index(['created_at'], 'plan_events_created_at')
    table.index(['kind', 'created_at'], 'plan_events_kind_created_at')
  })
  await db.schema.createTable('plan_tags', (table) => {
    table.increments('id')
    table.string('name', 20).notNullable()
    table.unique(['name'], { indexName: 'plan_tags_name' })
  })
  await db.schema.createTable('plan_event_tag', (table) => {
    table.integer('event_id').unsigned().notNullable()
    table.integer('tag_id').unsigned().notNullable()
    table.primary(['event_id', 'tag_id'])
    table.index(['tag_id'], 'plan_event_tag_tag_id')
  })
  if (name === 'postgres') {
    await db.raw('create index plan_events_published_at on plan_events (published_at desc nulls last, id desc)')
  } else {
    await db.raw('create index plan_events_published_at on plan_events (published_at, id)')
  }
  const events = Array.from({ length: EVENTS }, (_, index) => ({
    kind: KINDS[(index * 7) % KINDS.length] ?? 'a',
    created_at: stamp(((index * 7919) % EVENTS) * 60),
    published_at: index % 5 === 0 ? null : stamp(((index * 104729) % EVENTS) * 60),
  }))
  await db.batchInsert('plan_events', events, 400)
  await db.batchInsert(
    'plan_tags',
    Array.from({ length: TAGS }, (_, index) => ({ name: `tag ${index + 1}` })),
    400,
  )
  const links = Array.from({ length: EVENTS }, (_, index) => [
    { event_id: index + 1, tag_id: 1 + ((index * 31) % TAGS) },
    { event_id: index + 1, tag_id: 1 + ((index * 31 + 17) % TAGS) },
  ]).flat()
  await db.batchInsert('plan_event_tag', links, 400)
  await db.raw(name === 'mysql' ? `analyze table ${TABLES.join(', ')}` : 'analyze')
}

/** Drops the plan data set's tables. */
export async function dropPlanDataSet(db: Knex): Promise<void> {
  for (const table of TABLES) await db.schema.dropTableIfExists(table)
}
