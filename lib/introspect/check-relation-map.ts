import type { Knex } from 'knex'
import { dialectOf } from '../dialect/dialect-of.ts'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import { relationKind } from '../map/relation-kinds.ts'
import { validateRelationMap } from '../map/validate-relation-map.ts'
import type { RelationMap } from '../relation-map.ts'
import type { CheckRelationMapOptions } from './options.ts'
import { checkColumns } from './check-columns.ts'
import { checkDatetimeStorage } from './check-datetime-storage.ts'
import { checkGuardCoverage } from './check-guard-coverage.ts'
import { checkRelationKeys, schemaLookup } from './check-schema-keys.ts'
import { checkSortIndexes } from './sort-indexes.ts'
import { checkSearchIndex } from './check-search-indexes.ts'
import { readSchemas, schemasOf } from './read-schemas.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/** The map's tables and every table its relations' keys live in (pivot tables). */
function tablesOf(map: RelationMap): Set<string> {
  const tables = new Set(Object.keys(map))
  for (const [table, definition] of Object.entries(map)) {
    for (const relation of Object.values(definition.relations ?? {})) {
      for (const key of relationKind(relation.type).keyColumns(table, relation)) tables.add(key.table)
    }
  }
  return tables
}

/**
 * Compares a relation map with the live schema of `db`'s database and lists every difference, in map order:
 * missing tables and columns (an aliased column by its database column), keys that do not exist (`primaryKey`,
 * also the default `id`; relation, pivot and morph keys), a NOT NULL or unique claim the database does not
 * keep, a `required` belongsTo whose foreign key is nullable or not enforced, a declared type the column
 * cannot hold, on SQLite sampled `datetime` values that do not have the declared `storage`, and with
 * `options.indexes` each sortable column no index leads (`sortable_without_index`) and each declared search no
 * index of the catalog serves (`search_without_index`, naming the index to create), and in a map where some tables
 * have a guard each reachable table without one (`unguarded_table`, unless listed in `options.unguarded`). Each
 * problem has a stable `kind`, a `level` (`error`: requests can fail or return wrong rows;
 * `warning`: slower, or not checkable) and the map `path`. An empty list means the map fits the database.
 * Reads the catalog (and, on SQLite, up to 1,000 values of each `datetime` column). A map that is itself broken
 * throws the plain `Error` `defineRelationMap` would.
 *
 * @example
 * const problems = await checkRelationMap(db, relationMap)
 * const errors = problems.filter((problem) => problem.level === 'error')
 * if (errors.length > 0) throw new Error(errors.map((p) => `${p.path}: ${p.message}`).join('\n'))
 */
export async function checkRelationMap(
  db: Knex,
  map: RelationMap,
  options: CheckRelationMapOptions = {},
): Promise<RelationMapProblem[]> {
  if (options.dialect !== undefined) dialectOf(db.client, options.dialect)
  validateRelationMap(map)
  const wanted = tablesOf(map)
  const read = await readSchemas(db, schemasOf(wanted, options.schema), (table) => wanted.has(table), 'every')
  const schema = schemaLookup(read)
  const jsonInText = driverReadingOf(db.client).json === 'text'
  const problems: RelationMapProblem[] = []
  for (const name of Object.keys(map)) {
    const table = schema.table(name)
    if (table === undefined) {
      problems.push(relationMapProblem('missing_table', name, `the database has no table '${name}'`))
      continue
    }
    problems.push(...checkColumns(map, name, table, jsonInText), ...checkRelationKeys(map, name, schema))
    if (options.indexes === true)
      problems.push(...checkSortIndexes(map, name, table), ...(await checkSearchIndex(db, map, name, table)))
  }
  const exists = (table: string, column: string): boolean =>
    schema.table(table)?.columns.some((each) => each.name === column) ?? false
  problems.push(...(await checkDatetimeStorage(db, map, exists)))
  problems.push(...checkGuardCoverage(map, options.unguarded))
  return problems
}
