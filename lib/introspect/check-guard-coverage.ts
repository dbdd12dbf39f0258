import { linkedTables, relationKind } from '../map/relation-kinds.ts'
import type { RelationMap } from '../relation-map.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/**
 * In a map where some tables have a guard, each table without one that a relation reaches (`unguarded_table`,
 * a warning): a guard hides rows of its own table only, so `with`, relation filters and `relationsExists`
 * read every row of an unguarded table they reach, other tenants' included. `unguarded` lists the tables meant
 * to be shared. The message names the first relation found that reaches the table.
 */
export function checkGuardCoverage(map: RelationMap, unguarded: readonly string[] = []): RelationMapProblem[] {
  const tables = Object.keys(map)
  if (!tables.some((table) => map[table]?.guard !== undefined)) return []
  const reachedBy = new Map<string, string>()
  for (const table of tables) {
    for (const [name, relation] of Object.entries(map[table]?.relations ?? {})) {
      for (const target of linkedTables(relationKind(relation.type).link(relation)))
        if (!reachedBy.has(target)) reachedBy.set(target, `${table}.relations.${name}`)
    }
  }
  const problems: RelationMapProblem[] = []
  for (const table of tables) {
    const path = reachedBy.get(table)
    if (map[table]?.guard !== undefined || path === undefined || unguarded.includes(table)) continue
    problems.push(
      relationMapProblem(
        'unguarded_table',
        `${table}.guard`,
        `other tables have a guard but '${table}' has none, and ${path} reaches it: every caller reads all its rows ` +
          `(give it a guard, or list it in the 'unguarded' option if it is shared)`,
      ),
    )
  }
  return problems
}
