import type { Knex } from 'knex'

/** Posts, written by a user. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('posts', (table) => {
    table.increments('id')
    table.integer('user_id').unsigned().notNullable().index().references('id').inTable('users')
    table.string('title').notNullable()
    table.text('body').nullable()
    table.boolean('published').notNullable().defaultTo(false)
    table.datetime('published_at', { useTz: true }).nullable()
    table.integer('views').notNullable().defaultTo(0)
    table.double('rating').nullable()
    table.timestamps(false, true)
  })
}

/** Drops `posts`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('posts')
}
