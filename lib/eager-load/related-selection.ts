import type { RelationMap } from '../relation-map.ts'

/** What to select from a related table: every column, and those to delete once matching is done. */
export interface RelatedSelection {
  /** Unqualified column names: the allow-list first, then the extra ones. */
  columns: string[]
  /** Columns selected only for matching or nested loading; not on the allow-list. */
  extra: string[]
}

/** The allow-listed columns of `table` plus the `needed` ones, telling apart those that must be stripped. */
export function relatedSelection(map: RelationMap, table: string, needed: readonly string[]): RelatedSelection {
  const allowed = Object.keys(map[table]?.columns ?? {})
  const allowedSet = new Set(allowed)
  const extra = [...new Set(needed)].filter((column) => !allowedSet.has(column))
  return { columns: [...allowed, ...extra], extra }
}
