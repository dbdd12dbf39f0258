import type { Knex } from 'knex'
import type { RelationMap } from '../../../lib/relation-map.ts'

/** Rows of `cur_items`: enough for a dozen pages of 7, with ties on every order. */
export const CURSOR_ITEMS = 90

const notNull = { nullable: false } as const

/**
 * The cursor data set's map: `title` is nullable text of mixed case and accents (each database's collation
 * orders it), `score` a nullable decimal, `big` a bigint past 2^53, `at` a timestamp whose rows differ by one
 * microsecond, `rank` a small integer with many ties; `group` an optional belongsTo (a left join), `notes` a
 * hasMany (for `notesCount`). `cur_pairs` has a composite primary key.
 */
export const cursorMap = {
  cur_groups: { columns: { id: 'integer', name: { type: 'string', ...notNull } } },
  cur_items: {
    columns: {
      id: 'integer',
      group_id: 'integer',
      title: 'string',
      score: 'decimal',
      big: { type: 'bigint', ...notNull },
      at: { type: 'datetime', ...notNull },
      rank: { type: 'integer', ...notNull },
      secret: { type: 'string', sortable: false },
    },
    relations: {
      group: { type: 'belongsTo', table: 'cur_groups', foreignKey: 'group_id' },
      notes: { type: 'hasMany', table: 'cur_notes', foreignKey: 'item_id' },
      firstNote: { type: 'hasOne', table: 'cur_notes', foreignKey: 'item_id' },
    },
    aggregates: { notesWeightSum: { relation: 'notes', fn: 'sum', column: 'weight' } },
  },
  cur_notes: { columns: { id: 'integer', item_id: 'integer', weight: 'integer' } },
  cur_pairs: {
    primaryKey: ['left_id', 'right_id'],
    columns: { left_id: 'integer', right_id: 'integer', label: { type: 'string', ...notNull } },
  },
} satisfies RelationMap

const TABLES = ['cur_notes', 'cur_items', 'cur_groups', 'cur_pairs']
const TITLES = ['apple', 'Apple', 'banana', 'Émile', 'emile', 'zeta', 'Zeta', 'apple pie', null, null, 'b', 'B']
const GROUPS = ['alpha', 'Beta', 'gamma', 'Delta']

/** The timestamp of row `index`: 12 distinct instants, some one microsecond apart. */
export const stampOf = (index: number): string => `2024-03-01 10:00:0${index % 3}.00000${index % 4}`

/** One `cur_items` row for `index` (the id is the database's). */
export function itemRow(index: number): Record<string, unknown> {
  return {
    group_id: index % 5 === 0 ? null : (index % GROUPS.length) + 1,
    title: TITLES[index % TITLES.length] ?? null,
    score: index % 6 === 0 ? null : `${1 + (index % 4)}.00000${index % 3}`,
    big: `${9007199254740990n + BigInt(index % 7)}`,
    at: stampOf(index),
    rank: index % 4,
    secret: `s${index}`,
  }
}

/** Creates the cursor data set in tables of its own. */
export async function createCursorDataSet(db: Knex): Promise<void> {
  await dropCursorDataSet(db)
  await db.schema.createTable('cur_groups', (table) => {
    table.increments('id')
    table.string('name', 20).notNullable()
  })
  await db.schema.createTable('cur_items', (table) => {
    table.increments('id')
    table.integer('group_id').unsigned().nullable()
    table.string('title', 20).nullable().index()
    table.decimal('score', 20, 6).nullable()
    table.bigInteger('big').notNullable()
    table.datetime('at', { precision: 6 }).notNullable()
    table.integer('rank').notNullable()
    table.string('secret', 20).nullable()
    table.index(['at', 'id'])
    table.index(['rank', 'id'])
  })
  await db.schema.createTable('cur_notes', (table) => {
    table.increments('id')
    table.integer('item_id').unsigned().notNullable().index()
    table.integer('weight').notNullable()
  })
  await db.schema.createTable('cur_pairs', (table) => {
    table.integer('left_id').notNullable()
    table.integer('right_id').notNullable()
    table.string('label', 20).notNullable()
    table.primary(['left_id', 'right_id'])
  })
  await db('cur_groups').insert(GROUPS.map((name) => ({ name })))
  await db('cur_items').insert(Array.from({ length: CURSOR_ITEMS }, (_, index) => itemRow(index)))
  const notes: Array<Record<string, unknown>> = []
  for (let item = 1; item <= CURSOR_ITEMS; item++)
    for (let note = 0; note < item % 4; note++) notes.push({ item_id: item, weight: (item * 7 + note) % 5 })
  await db('cur_notes').insert(notes)
  const pairs: Array<Record<string, unknown>> = []
  for (let left = 1; left <= 6; left++)
    for (let right = 1; right <= 5; right++)
      pairs.push({ left_id: left, right_id: right, label: `p${(left + right) % 3}` })
  await db('cur_pairs').insert(pairs)
}

/** Drops the cursor data set's tables. */
export async function dropCursorDataSet(db: Knex): Promise<void> {
  for (const table of TABLES) await db.schema.dropTableIfExists(table)
}
