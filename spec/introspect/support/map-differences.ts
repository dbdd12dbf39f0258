import type { ColumnSpec, RelationDefinition, RelationMap, TableDefinition } from '../../../lib/relation-map.ts'

/** A relation map's data, cloned so that a test can edit it into what the generator should give. */
export type EditableMap = Record<string, TableDefinition>

/** A deep copy of `map` without its scopes, guards (functions) and declared aggregates, which a schema cannot state. */
export function editableCopy(map: RelationMap): EditableMap {
  const tables: EditableMap = {}
  for (const [name, { scopes: _scopes, guard: _guard, aggregates: _aggregates, ...definition }] of Object.entries(map))
    tables[name] = structuredClone(definition)
  return tables
}

function tableOf(tables: EditableMap, table: string): TableDefinition {
  const definition = tables[table]
  if (definition === undefined) throw new Error(`the expected map has no table ${table}`)
  return definition
}

function relationsOf(tables: EditableMap, table: string): Record<string, RelationDefinition> {
  const relations = tableOf(tables, table).relations
  if (relations === undefined) throw new Error(`the expected map has no relations on ${table}`)
  return relations
}

/** Removes `table.relation` (and `relations` when it was the last one); throws when it is not there. */
export function dropRelation(tables: EditableMap, table: string, relation: string): void {
  const relations = relationsOf(tables, table)
  if (!Object.hasOwn(relations, relation)) throw new Error(`the expected map has no ${table}.${relation}`)
  delete relations[relation]
  if (Object.keys(relations).length === 0) delete tableOf(tables, table).relations
}

/** Renames `table.from` to `to`, keeping its definition; throws when it is not there. */
export function renameRelation(tables: EditableMap, table: string, from: string, to: string): void {
  const relations = relationsOf(tables, table)
  const relation = relations[from]
  if (relation === undefined) throw new Error(`the expected map has no ${table}.${from}`)
  delete relations[from]
  relations[to] = relation
}

/** Adds `table.name`; throws when it is already there. */
export function addRelation(tables: EditableMap, table: string, name: string, relation: RelationDefinition): void {
  const definition = tableOf(tables, table)
  if (Object.hasOwn(definition.relations ?? {}, name)) throw new Error(`the expected map already has ${table}.${name}`)
  definition.relations = { ...definition.relations, [name]: relation }
}

/** Adds a column declaration; throws when the column is already there. */
export function addColumn(tables: EditableMap, table: string, name: string, spec: ColumnSpec): void {
  const definition = tableOf(tables, table)
  if (Object.hasOwn(definition.columns, name)) throw new Error(`the expected map already has ${table}.${name}`)
  definition.columns = { ...definition.columns, [name]: spec }
}

/** Declares the column `table.column` under the client name `clientName`, with `column` naming the database column. */
export function aliasColumn(tables: EditableMap, table: string, column: string, clientName: string): void {
  const columns = tableOf(tables, table).columns
  const spec = columns[column]
  if (spec === undefined) throw new Error(`the expected map has no column ${table}.${column}`)
  delete columns[column]
  columns[clientName] = typeof spec === 'string' ? { type: spec, column } : { ...spec, column }
}
