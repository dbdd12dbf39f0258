import type { Knex } from 'knex'
import { listTables } from '../../../fixtures/list-tables.ts'

/** What a safety test compares before and after: tables, their columns and rows, foreign keys. */
export interface DatabaseDescription {
  tables: string[]
  columns: Record<string, string[]>
  rows: Record<string, unknown[]>
  foreignKeys: string[]
}

type Row = Record<string, unknown>

const rowsOf = (knex: Knex, result: unknown): Row[] =>
  knex.client.dialect === 'mysql'
    ? (result as [Row[]])[0]
    : knex.client.dialect === 'postgresql'
      ? (result as { rows: Row[] }).rows
      : (result as Row[])

async function foreignKeys(knex: Knex, tables: readonly string[]): Promise<string[]> {
  const dialect = knex.client.dialect as string
  let rows: Row[] = []
  if (dialect === 'postgresql') {
    rows = rowsOf(
      knex,
      await knex.raw(
        `select conrelid::regclass::text || ': ' || pg_get_constraintdef(oid) as fk from pg_constraint where contype = 'f'`,
      ),
    )
  } else if (dialect === 'mysql') {
    rows = rowsOf(
      knex,
      await knex.raw(
        `select concat(table_name, '.', column_name, ' -> ', referenced_table_name, '.', referenced_column_name) as fk
       from information_schema.key_column_usage where table_schema = database() and referenced_table_name is not null`,
      ),
    )
  } else {
    for (const table of tables) {
      const list = rowsOf(knex, await knex.raw('select * from pragma_foreign_key_list(?)', [table]))
      rows.push(
        ...list.map((row) => ({ fk: `${table}.${String(row.from)} -> ${String(row.table)}.${String(row.to)}` })),
      )
    }
  }
  return rows.map((row) => String(row.fk)).sort()
}

/**
 * Everything a test needs to prove a database unchanged: every table (see `listTables`), its columns,
 * its rows in primary-key order (as JSON values) and every foreign key.
 *
 * @example
 * const before = await describeDatabase(db); …; expect(await describeDatabase(db)).to.deep.equal(before)
 */
export async function describeDatabase(knex: Knex): Promise<DatabaseDescription> {
  const tables = await listTables(knex)
  const columns: Record<string, string[]> = {}
  const rows: Record<string, unknown[]> = {}
  for (const table of tables) {
    columns[table] = Object.keys(await knex(table).columnInfo()).sort()
    rows[table] = JSON.parse(JSON.stringify(await knex(table).select('*').orderBy('id'))) as unknown[]
  }
  return { tables, columns, rows, foreignKeys: await foreignKeys(knex, tables) }
}
