import type { Knex } from 'knex'
import { TENANT_TABLES, type TenantRow, type TenantTable } from './tenant-data.ts'

const COLUMNS: Record<TenantTable, Record<string, 'integer' | 'string'>> = {
  teams: { name: 'string', owner_id: 'integer' },
  users: { team_id: 'integer', name: 'string', score: 'integer' },
  posts: { user_id: 'integer', title: 'string', views: 'integer' },
  comments: { post_id: 'integer', user_id: 'integer', body: 'string' },
  tags: { name: 'string' },
  post_tag: { post_id: 'integer', tag_id: 'integer' },
  images: { imageable_type: 'string', imageable_id: 'integer', url: 'string' },
}

/**
 * (Re)creates the tables `<prefix>teams`… and fills them with `data`. No foreign-key constraints: the
 * single-tenant copy keeps keys that point at rows it does not hold, as a guarded view would see them.
 */
export async function createTenantTables(
  knex: Knex,
  prefix: string,
  data: Record<TenantTable, readonly TenantRow[]>,
): Promise<void> {
  await dropTenantTables(knex, prefix)
  for (const table of TENANT_TABLES) {
    await knex.schema.createTable(`${prefix}${table}`, (builder) => {
      builder.integer('id').primary()
      builder.integer('tenant_id').notNullable()
      for (const [column, type] of Object.entries(COLUMNS[table])) {
        if (type === 'integer') builder.integer(column).nullable()
        else builder.string(column, 100).nullable()
      }
      builder.timestamp('deleted_at').nullable()
      builder.index(['tenant_id'])
    })
    const rows = data[table]
    if (rows.length > 0)
      await knex.batchInsert(
        `${prefix}${table}`,
        rows.map((row) => ({ ...row })),
        100,
      )
  }
}

/** Drops the tables of {@link createTenantTables}, if they exist. */
export async function dropTenantTables(knex: Knex, prefix: string): Promise<void> {
  for (const table of [...TENANT_TABLES].reverse()) await knex.schema.dropTableIfExists(`${prefix}${table}`)
}
