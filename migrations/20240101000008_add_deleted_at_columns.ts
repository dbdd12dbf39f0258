import type { Knex } from 'knex'

/** The demo resources a client deletes from: a `DELETE` with a `deleted_at` body soft-deletes their rows. */
const SOFT_DELETED = ['teams', 'users', 'posts', 'comments', 'tags', 'images']

/** Adds a nullable `deleted_at` timestamp to each demo resource table (NULL: not deleted). */
export async function up(knex: Knex): Promise<void> {
  for (const name of SOFT_DELETED) {
    await knex.schema.alterTable(name, (table) => {
      table.timestamp('deleted_at', { useTz: true }).nullable()
    })
  }
}

/** Drops the `deleted_at` columns. */
export async function down(knex: Knex): Promise<void> {
  for (const name of SOFT_DELETED) {
    await knex.schema.alterTable(name, (table) => {
      table.dropColumn('deleted_at')
    })
  }
}
