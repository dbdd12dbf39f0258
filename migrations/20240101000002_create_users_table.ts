import type { Knex } from 'knex'

/** Users; `password` holds a secret hash that must never reach a client. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (table) => {
    table.increments('id')
    table.integer('team_id').unsigned().nullable().index().references('id').inTable('teams')
    table.string('name').notNullable()
    table.string('email').notNullable().unique()
    table.string('password').notNullable()
    table.boolean('is_admin').notNullable().defaultTo(false)
    table.date('birthday').nullable()
    table.double('score').nullable()
    table.timestamps(false, true)
  })
}

/** Drops `users`. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users')
}
