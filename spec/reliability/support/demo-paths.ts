import { relationMap } from '../../../fixtures/relation-map.ts'
import type { ColumnType, RelationMap } from '../../../lib/relation-map.ts'
import { relatedTables, relationsOf } from '../../../lib/validate/relations-of.ts'
import { columnType } from '../../../lib/map/columns.ts'
import { primaryKeyOf } from '../../../lib/validate/relation-from-definition.ts'

/** The demo relation map, typed as the library sees it. */
export const demoMap: RelationMap = relationMap

/** The tables of the demo map. */
export const DEMO_TABLE_NAMES: readonly string[] = Object.keys(demoMap)

/** A column a client may name from some base table, and its declared type. */
export interface ColumnPath {
  path: string
  type: ColumnType
  /** Relations the path goes through (0 for an own column). */
  depth: number
  /** The table whose column it is (the first target having it, after a `morphTo`). */
  table: string
  column: string
}

const TO_ONE = new Set(['belongsTo', 'hasOne', 'morphOne'])

function columnsOf(table: string): Array<[string, ColumnType]> {
  return Object.entries(demoMap[table]?.columns ?? {}).map(([name, spec]) => [name, columnType(spec)])
}

/**
 * Every column a `wheres[i][column]` may name from `table`, through at most `maxDepth` relations:
 * `name`, `posts.title`, `imageable.url` (after a `morphTo`, a column any target has).
 */
export function filterColumns(table: string, maxDepth: number): ColumnPath[] {
  const found = new Map<string, ColumnPath>()
  const walk = (current: string, prefix: string, depth: number): void => {
    for (const [column, type] of columnsOf(current)) {
      const path = `${prefix}${column}`
      if (!found.has(path)) found.set(path, { path, type, depth, table: current, column })
    }
    if (depth === maxDepth) return
    for (const [name, relation] of relationsOf(demoMap, current)) {
      for (const related of relatedTables(relation)) walk(related, `${prefix}${name}.`, depth + 1)
    }
  }
  walk(table, '', 0)
  return [...found.values()]
}

/** Every `relationsExists` path from `table` of at most `maxDepth` relations (`posts`, `posts.comments`). */
export function existsPaths(table: string, maxDepth: number): string[] {
  const paths = new Set<string>()
  const walk = (current: string, prefix: string, depth: number): void => {
    if (depth === maxDepth) return
    for (const [name, relation] of relationsOf(demoMap, current)) {
      paths.add(`${prefix}${name}`)
      for (const related of relatedTables(relation)) walk(related, `${prefix}${name}.`, depth + 1)
    }
  }
  walk(table, '', 0)
  return [...paths]
}

/** Every column `orders[i][column]` may name from `table`: own columns and to-one paths (`team.owner.name`). */
export function orderColumns(table: string, maxDepth: number): ColumnPath[] {
  const found: ColumnPath[] = []
  const walk = (current: string, prefix: string, depth: number): void => {
    for (const [column, type] of columnsOf(current))
      found.push({ path: `${prefix}${column}`, type, depth, table: current, column })
    if (depth === maxDepth) return
    for (const [name, relation] of relationsOf(demoMap, current)) {
      if (relation.kind === 'direct' && TO_ONE.has(relation.type)) walk(relation.table, `${prefix}${name}.`, depth + 1)
    }
  }
  walk(table, '', 0)
  return found
}

/** Every `with` path from `table` of at most `maxDepth` segments, with `*` and `relation.*` forms. */
export function withPaths(table: string, maxDepth: number): string[] {
  const paths = new Set<string>(['*'])
  const walk = (current: string, prefix: string, depth: number): void => {
    if (depth === maxDepth) return
    for (const [name, relation] of relationsOf(demoMap, current)) {
      paths.add(`${prefix}${name}`)
      if (depth + 1 < maxDepth) paths.add(`${prefix}${name}.*`)
      for (const related of relatedTables(relation)) walk(related, `${prefix}${name}.`, depth + 1)
    }
  }
  walk(table, '', 0)
  return [...paths]
}

/** The allow-listed columns of `table`, with their types. */
export function ownColumns(table: string): Array<{ column: string; type: ColumnType }> {
  return columnsOf(table).map(([column, type]) => ({ column, type }))
}

/** The primary key of a demo table. */
export function primaryKey(table: string): string {
  return primaryKeyOf(demoMap, table)
}

/** The scope names of a demo table. */
export function scopeNames(table: string): string[] {
  return Object.keys(demoMap[table]?.scopes ?? {})
}
