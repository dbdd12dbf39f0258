import type { Knex } from 'knex'
import { defineRelationMap } from '../../../lib/index.ts'

/**
 * Orders and their lines, with a column of every declared type. `lines.order_id` is a key the client may not
 * see (not allow-listed): eager loading selects it for matching and must strip it on every read path.
 */
export const jsonMap = defineRelationMap({
  json_orders: {
    columns: {
      id: 'integer',
      label: 'string',
      paid: { type: 'boolean', nullable: false },
      day: 'date',
      at: { type: 'datetime', storage: 'epoch_ms' },
      noted: 'datetime',
      price: 'decimal',
      weight: 'number',
      big: 'bigint',
    },
    relations: { lines: { type: 'hasMany', table: 'json_lines', foreignKey: 'order_id' } },
  },
  json_lines: {
    columns: { id: 'integer', shipped: 'boolean', ship_day: 'date', amount: 'number', total: 'decimal' },
    relations: { order: { type: 'belongsTo', table: 'json_orders', foreignKey: 'order_id' } },
  },
})

/** The tables of {@link jsonMap}, created as each database's users create them with knex. */
export async function createJsonTables(db: Knex): Promise<void> {
  await dropJsonTables(db)
  await db.schema.createTable('json_orders', (table) => {
    table.integer('id').primary()
    table.string('label')
    table.boolean('paid').notNullable()
    table.date('day')
    table.datetime('at', { precision: 3 })
    table.datetime('noted')
    table.specificType('price', 'decimal(10,2)')
    table.double('weight')
    table.bigInteger('big')
  })
  await db.schema.createTable('json_lines', (table) => {
    table.integer('id').primary()
    table.integer('order_id').notNullable()
    table.boolean('shipped')
    table.date('ship_day')
    table.double('amount')
    table.specificType('total', 'decimal(10,2)')
  })
}

export async function dropJsonTables(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('json_lines')
  await db.schema.dropTableIfExists('json_orders')
}

/**
 * Writes the rows the ordinary way: JS `Date`s for date-times (knex turns them into epoch milliseconds on
 * SQLite, into `timestamptz` on PostgreSQL, into `DATETIME` text in the connection's zone on MySQL), a date as
 * `YYYY-MM-DD`, booleans as `true`/`false`, decimals as JS numbers, a bigint beyond 2^53 as text. SQLite users
 * writing SQLite's own `CURRENT_TIMESTAMP` format put `YYYY-MM-DD HH:MM:SS` text in `noted`.
 */
export async function writeJsonRows(db: Knex, sqlite: boolean): Promise<void> {
  const noted = (iso: string): Date | string => (sqlite ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : new Date(iso))
  await db('json_orders').insert([
    {
      id: 1,
      label: 'first',
      paid: true,
      day: '2024-03-01',
      at: new Date('2024-03-01T12:00:00.000Z'),
      noted: noted('2024-03-01T23:30:00.000Z'),
      price: 4.99,
      weight: 1.5,
      big: '9007199254740993',
    },
    {
      id: 2,
      label: 'second',
      paid: false,
      day: '2024-02-29',
      at: new Date('2024-02-29T23:59:59.123Z'),
      noted: noted('2024-01-01T00:00:00.000Z'),
      price: 69.4,
      weight: 0,
      big: '-42',
    },
    { id: 3, label: null, paid: false, day: null, at: null, noted: null, price: null, weight: null, big: null },
  ])
  await db('json_lines').insert([
    { id: 10, order_id: 1, shipped: true, ship_day: '2024-03-02', amount: 2.25, total: 10.1 },
    { id: 11, order_id: 1, shipped: false, ship_day: '2023-12-31', amount: 3, total: 0 },
    { id: 12, order_id: 2, shipped: null, ship_day: null, amount: null, total: null },
  ])
}
