import type { Knex } from 'knex'

/** Comments of a user on a post. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('comments', (table) => {
    table.increments('id')
    table.integer('post_id').unsigned().notNullable().index().references('id').inTable('posts')
    table.integer('user_id').unsigned().notNullable().index().references('id').inTable('users')
    table.text('body').notNullable()
    table.timestamps(false, true)
  })
}

/** Drops `comments`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('comments')
}
