import type { Knex } from 'knex'

/** Tags, attached to posts through `post_tag`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tags', (table) => {
    table.increments('id')
    table.string('name').notNullable()
    table.timestamps(false, true)
  })
}

/** Drops `tags`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tags')
}
