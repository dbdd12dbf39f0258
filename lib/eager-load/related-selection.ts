import { clientColumn, databaseColumn } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'

/** What to select from a related table: every column, and those to delete once matching is done. */
export interface RelatedSelection {
  /**
   * Qualified columns to select: the allow-list first (an aliased one as `albums.ArtistId as artistId`), then the extra
   * ones.
   */
  columns: string[]
  /** Columns selected only for matching or nested loading; not on the allow-list. */
  extra: string[]
}

/**
 * The allow-listed columns of `table`, under their client names, plus the `needed` database columns that
 * the allow-list does not declare, telling apart those that must be stripped.
 */
export function relatedSelection(map: RelationMap, table: string, needed: readonly string[]): RelatedSelection {
  const allowed = Object.keys(map[table]?.columns ?? {}).map((name) => {
    const column = databaseColumn(map, table, name)
    return column === name ? `${table}.${name}` : `${table}.${column} as ${name}`
  })
  const extra = [...new Set(needed)].filter((column) => clientColumn(map, table, column) === undefined)
  return { columns: [...allowed, ...extra.map((column) => `${table}.${column}`)], extra }
}
