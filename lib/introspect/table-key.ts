import type { IntrospectionNotice } from './introspection-notice.ts'
import type { SchemaTable } from '../dialect/schema/schema-snapshot.ts'

/**
 * The columns that identify a row of `table`: its primary key; without one, its first unique constraint
 * whose columns are all NOT NULL (reported); for a view, its first column whose name ends in `id` (reported);
 * without that either, `undefined` (reported): the map needs a
 * key for tie-breaks and eager loading, so such a table is left out.
 *
 * @example
 * tableKey(playlistTrack, notices) // ['playlist_id', 'track_id']
 */
export function tableKey(table: SchemaTable, notices: IntrospectionNotice[]): readonly string[] | undefined {
  if (table.primaryKey.length > 0) return table.primaryKey
  const notNull = (name: string): boolean => table.columns.some((column) => column.name === name && !column.nullable)
  const unique = table.uniques.find((columns) => columns.length > 0 && columns.every(notNull))
  if (unique !== undefined) {
    notices.push({
      kind: 'no-primary-key',
      table: table.name,
      message:
        `${table.name}: no primary key; the unique NOT NULL ${unique.length > 1 ? 'columns' : 'column'} ` +
        `${unique.join(', ')} ${unique.length > 1 ? 'serve' : 'serves'} as its key`,
    })
    return unique
  }
  const viewKey = table.kind === 'view' ? table.columns.find((column) => /id$/i.test(column.name)) : undefined
  if (viewKey !== undefined) {
    const message =
      `${table.name}: a view; its first column named like a key, ${viewKey.name}, serves as its key` +
      ' (check that it is unique)'
    notices.push({ kind: 'no-primary-key', table: table.name, message })
    return [viewKey.name]
  }
  notices.push({
    kind: 'no-primary-key',
    table: table.name,
    message: `${table.name}: left out, it has no primary key and no unique NOT NULL columns to identify its rows`,
  })
  return undefined
}
