import type { Knex } from 'knex'

/** The posts–tags pivot; the primary key serves lookups by `post_id`, the extra index those by `tag_id`. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('post_tag', (table) => {
    table.integer('post_id').unsigned().notNullable().references('id').inTable('posts')
    table.integer('tag_id').unsigned().notNullable().index().references('id').inTable('tags')
    table.primary(['post_id', 'tag_id'])
  })
}

/** Drops `post_tag`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('post_tag')
}
