import type { Knex } from 'knex'

/** Images of users and posts, through the polymorphic pair (`imageable_type`, `imageable_id`). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('images', (table) => {
    table.increments('id')
    table.string('imageable_type').notNullable()
    table.integer('imageable_id').unsigned().notNullable()
    table.string('url').notNullable()
    table.timestamps(false, true)
    table.index(['imageable_type', 'imageable_id'])
  })
}

/** Drops `images`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('images')
}
