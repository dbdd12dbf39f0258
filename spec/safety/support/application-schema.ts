import type { Knex } from 'knex'

/**
 * Fills `knex`'s database with a small application of someone else's: `users` (a name the demo uses too)
 * and `orders` referencing it by a foreign key, with rows.
 *
 * @example
 * await createApplicationSchema(knex)
 */
export async function createApplicationSchema(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.integer('id').primary()
    table.string('email', 100).notNullable().unique()
  })
  await knex.schema.createTable('orders', (table) => {
    table.integer('id').primary()
    table.integer('user_id').notNullable().references('id').inTable('users')
    table.integer('total_cents').notNullable()
  })
  await knex('users').insert([
    { id: 1, email: 'ada@example.com' },
    { id: 2, email: 'grace@example.com' },
  ])
  await knex('orders').insert([
    { id: 10, user_id: 1, total_cents: 1250 },
    { id: 11, user_id: 2, total_cents: 990 },
    { id: 12, user_id: 1, total_cents: 30000 },
  ])
}
