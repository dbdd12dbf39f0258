import type { Knex } from 'knex'

/** Teams; `owner_id` points at a user but has no constraint, because users also reference teams. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (table) => {
    table.increments('id')
    table.string('name').notNullable()
    table.integer('owner_id').unsigned().nullable().index()
    table.timestamps(false, true)
  })
}

/** Drops `teams`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('teams')
}
