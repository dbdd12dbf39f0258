import { columnType, databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import { aggregatesOf } from '../validate/aggregates-of.ts'
import { relationsOf } from '../validate/relations-of.ts'
import { schemaRef, type JsonSchema } from './json-schema.ts'
import { enumOf, responseValueSchema } from './value-schemas.ts'

/** A table's row schema name in `components.schemas`: the table name, characters not in `[A-Za-z0-9._-]` as `_`. */
export function rowSchemaName(table: string): string {
  return table.replace(/[^A-Za-z0-9._-]/g, '_')
}

/**
 * The JSON Schema of a row of `table` as the library returns it (`TableRecord`): each allow-listed column
 * under its client name as the JSON value of its type (`null` too unless it is a key column or declared
 * `nullable: false`), each relation when eager-loaded (a to-one one a row or `null`, a to-many one an array),
 * each aggregate when asked for. No property is required: `columns` selects some, `with` adds the others.
 * Nothing else is ever in a row, so `additionalProperties` is `false`.
 */
export function rowSchema(map: RelationMap, table: string): JsonSchema {
  const definition = map[table]
  if (definition === undefined)
    throw new Error(`knex-query-params: openApiDocument: table '${table}' is not in the relation map`)
  const key = primaryKeyColumns(map, table)
  const properties: Record<string, JsonSchema> = {}
  for (const [name, spec] of Object.entries(definition.columns)) {
    const nullable =
      !key.includes(databaseColumn(map, table, name)) && (typeof spec === 'string' || spec.nullable !== false)
    properties[name] = responseValueSchema(columnType(spec), nullable, enumOf(spec))
  }
  for (const relation of relationsOf(map, table).values()) {
    if (relation.kind === 'morphTo') {
      properties[relation.name] = {
        anyOf: [...relation.targets.map((target) => schemaRef(rowSchemaName(target.table))), { type: 'null' }],
      }
    } else if (relation.many) {
      properties[relation.name] = { type: 'array', items: schemaRef(rowSchemaName(relation.table)) }
    } else {
      properties[relation.name] = { anyOf: [schemaRef(rowSchemaName(relation.table)), { type: 'null' }] }
    }
  }
  for (const aggregate of aggregatesOf(map, table).bySnakeName.values()) {
    const schema =
      aggregate.kind === 'exists' ? { type: 'boolean' } : responseValueSchema(aggregate.type, aggregate.nullable)
    properties[aggregate.key] = {
      ...schema,
      description: `${aggregate.kind} over ${aggregate.relation.name} (with[]=${aggregate.name})`,
    }
  }
  return { type: 'object', title: table, properties, additionalProperties: false }
}
