import type { IntrospectionNotice } from './introspection-notice.ts'
import { KNEX_MIGRATION_TABLES, type RelationMapFromSchemaOptions } from './options.ts'
import type { SchemaSnapshot, SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/**
 * The tables of `snapshot` that `options.tables` and `options.exclude` keep, in snapshot order; knex's
 * migration tables only when `options.tables` names them. Each table left out is reported.
 *
 * @throws {Error} when `tables`, `exclude` or `noInverse` name a table the snapshot does not have.
 */
export function selectTables(
  snapshot: SchemaSnapshot,
  options: Pick<RelationMapFromSchemaOptions, 'tables' | 'exclude' | 'noInverse'>,
  notices: IntrospectionNotice[],
): SchemaTable[] {
  const names = new Set(snapshot.tables.map((table) => table.name))
  for (const [option, list] of [
    ['tables', options.tables],
    ['exclude', options.exclude],
    ['noInverse', options.noInverse],
  ] as const) {
    const unknown = (list ?? []).filter((name) => !names.has(name))
    if (unknown.length > 0)
      throw new Error(
        `options.${option}: no table ${unknown.map((name) => `'${name}'`).join(', ')} in the database (tables: ${[...names].join(', ')})`,
      )
  }
  const selected: SchemaTable[] = []
  for (const table of snapshot.tables) {
    let why: string | undefined
    if (options.tables !== undefined && !options.tables.includes(table.name)) why = 'not among the tables asked for'
    else if (options.exclude?.includes(table.name) === true) why = 'excluded'
    else if (options.tables === undefined && KNEX_MIGRATION_TABLES.includes(table.name))
      why = "knex's migration bookkeeping"
    if (why === undefined) selected.push(table)
    else notices.push({ kind: 'excluded-table', table: table.name, message: `${table.name}: left out, ${why}` })
  }
  return selected
}
