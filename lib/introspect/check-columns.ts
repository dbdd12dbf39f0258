import type { ColumnType, ColumnSpec, RelationMap } from '../relation-map.ts'
import { databaseColumn, primaryKeyColumns } from '../map/columns.ts'
import { checkPrecision } from './check-precision.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'
import type { SchemaColumn, SchemaTable } from '../dialect/schema/schema-snapshot.ts'
import { yieldsNonScalar } from './non-scalar-types.ts'

/** The map types whose columns can hold every value a column of the key type holds. */
const WIDER: Readonly<Partial<Record<ColumnType, readonly ColumnType[]>>> = {
  integer: ['number', 'bigint', 'decimal'],
  number: ['decimal'],
  bigint: ['decimal'],
}

/**
 * Whether every value a client may send for a column declared `declared` can be compared with a column the
 * database holds as `actual` (a map type): the same type, a wider number type (`integer` on a `bigint` or
 * decimal column), `json` on a text column where the driver gives JSON as text (`jsonInText`: SQLite, which has
 * no JSON type), or the inexact `number` and `integer` declared on a `decimal` or `bigint` column (a choice
 * to get JS numbers, see `RelationMapFromSchemaOptions.exactNumbers`).
 */
export function columnTypeFits(declared: ColumnType, actual: ColumnType, jsonInText = false): boolean {
  if (declared === 'json' && actual === 'string') return jsonInText
  return declared === actual || (WIDER[declared]?.includes(actual) ?? false)
}

const specOf = (spec: ColumnSpec): { type: ColumnType; nullable: boolean; unique: boolean } =>
  typeof spec === 'string'
    ? { type: spec, nullable: true, unique: false }
    : { type: spec.type, nullable: spec.nullable ?? true, unique: spec.unique ?? false }

function isUnique(table: SchemaTable, columns: readonly string[]): boolean {
  return [table.primaryKey, ...table.uniques].some(
    (key) => key.length > 0 && key.every((column) => columns.includes(column)),
  )
}

function checkColumn(
  path: string,
  spec: ColumnSpec,
  column: SchemaColumn,
  table: SchemaTable,
  isKey: boolean,
  jsonInText: boolean,
): RelationMapProblem[] {
  const declared = specOf(spec)
  const type = declared.type
  const where = `${table.name}.${column.name}`
  const problems: RelationMapProblem[] = []
  if (column.type === undefined && yieldsNonScalar(column.dataType)) {
    const message =
      `declared '${type}', but ${where} is ${column.dataType}, whose values are not scalars` +
      ' (an array, bytes or a geometry): rows would carry an array, a Buffer or an object'
    problems.push(relationMapProblem('type_mismatch', path, message))
  } else if (column.type === undefined) {
    problems.push(
      relationMapProblem(
        'type_unknown',
        path,
        `${where} is ${column.dataType}, which no map type holds; '${type}' cannot be checked against it`,
      ),
    )
  } else if (!columnTypeFits(type, column.type, jsonInText)) {
    problems.push(
      relationMapProblem(
        'type_mismatch',
        path,
        `declared '${type}', but ${where} is ${column.dataType} (a '${column.type}' column): a client's value would ` +
          `be a database error or compare wrongly`,
      ),
    )
  }
  problems.push(...checkPrecision(path, spec, column, where))
  if (!declared.nullable && column.nullable) {
    problems.push(
      relationMapProblem(
        'not_null_not_enforced',
        path,
        `declared nullable: false, but ${where} may hold NULL: orders would leave its NULL rows out of order`,
      ),
    )
  } else if (declared.nullable && !column.nullable && !isKey) {
    problems.push(
      relationMapProblem(
        'not_null_undeclared',
        path,
        `${where} is NOT NULL; declare nullable: false so its orders need no NULL-ordering clause`,
      ),
    )
  }
  if (declared.unique && !isUnique(table, [column.name])) {
    problems.push(
      relationMapProblem(
        'unique_not_enforced',
        path,
        `declared unique: true, but no unique constraint or index of ${table.name} is on ${column.name} alone`,
      ),
    )
  }
  return problems
}

/**
 * The problems of one table's columns and primary key against the database table: each declared column (by its
 * database column) exists, holds the declared type, keeps a declared NOT NULL and unique; `primaryKey` (default
 * `id`) exists and is unique in the database. `jsonInText`: the driver gives JSON values as text, so a text column
 * may be declared `json` (SQLite).
 */
export function checkColumns(
  map: RelationMap,
  name: string,
  table: SchemaTable,
  jsonInText = false,
): RelationMapProblem[] {
  const definition = map[name]
  if (definition === undefined) return []
  const problems: RelationMapProblem[] = []
  const key = primaryKeyColumns(map, name)
  const columns = new Map(table.columns.map((column) => [column.name, column]))
  for (const [clientName, spec] of Object.entries(definition.columns)) {
    const path = `${name}.columns.${clientName}`
    const columnName = databaseColumn(map, name, clientName)
    const column = columns.get(columnName)
    if (column === undefined) {
      problems.push(relationMapProblem('missing_column', path, `${name} has no column '${columnName}'`))
    } else {
      problems.push(...checkColumn(path, spec, column, table, key.includes(columnName), jsonInText))
    }
  }
  const path = `${name}.primaryKey`
  const missing = key.filter((column) => !columns.has(column))
  if (missing.length > 0) {
    const actual =
      table.primaryKey.length === 0
        ? 'it has no primary key: set primaryKey to a unique column'
        : `its primary key is ${table.primaryKey.join(', ')}: set primaryKey to that`
    const implied = definition.primaryKey === undefined ? ` (the default primaryKey); ${actual}` : ''
    problems.push(
      relationMapProblem(
        'missing_key',
        path,
        `${name} has no column ${missing.map((column) => `'${column}'`).join(', ')}${implied}`,
      ),
    )
  } else if (table.kind !== 'view' && !isUnique(table, key)) {
    problems.push(
      relationMapProblem(
        'key_not_unique',
        path,
        `no primary key or unique constraint of ${name} makes (${key.join(', ')}) unique: pages and eager loading ` +
          `would mix rows up`,
      ),
    )
  }
  return problems
}
