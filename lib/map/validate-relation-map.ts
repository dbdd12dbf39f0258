import type { RelationMap } from '../relation-map.ts'
import { describeValue, isObject } from './describe-value.ts'
import { didYouMean, relationMapError } from './relation-map-error.ts'
import { validateColumn } from './validate-column.ts'
import { validateRelation } from './validate-relation.ts'

const TABLE_KEYS = ['primaryKey', 'columns', 'relations', 'scopes', 'guard']

/**
 * Checks a whole relation map, table by table: known keys only, `columns` with valid column types,
 * a `primaryKey` (default `id`) among the columns, valid relations whose tables the map defines, scopes
 * and `guard` that are functions. Found mistakes are bugs in the server's code, so they are plain
 * `Error`s naming the path and the fix, never a `QueryParamsError`.
 *
 * @throws {Error} e.g. `knex-query-params: users.relations.posts.type: 'hasmany' is not a relation type; expected one of …`
 */
export function validateRelationMap(map: unknown): asserts map is RelationMap {
  if (!isObject(map)) {
    throw new Error(`knex-query-params: the relation map must be an object of table definitions ({ users: { columns: { … } } }), got ${describeValue(map)}`)
  }
  const tables = new Set(Object.keys(map))
  for (const [table, definition] of Object.entries(map)) validateTable(table, definition, tables)
}

function validateTable(table: string, definition: unknown, tables: ReadonlySet<string>): void {
  if (!isObject(definition)) {
    throw relationMapError(table, `expected a table definition ({ columns, relations?, scopes?, primaryKey?, guard? }), got ${describeValue(definition)}`)
  }
  for (const key of Object.keys(definition)) {
    if (!TABLE_KEYS.includes(key)) throw relationMapError(`${table}.${key}`, `unknown key${didYouMean(key, TABLE_KEYS)}; a table takes ${TABLE_KEYS.join(', ')}`)
  }
  const { columns, primaryKey, relations, scopes, guard } = definition
  if (!isObject(columns)) {
    throw relationMapError(`${table}.columns`, `expected the allow-listed columns ({ id: 'integer', … }), got ${describeValue(columns)}`)
  }
  for (const [column, spec] of Object.entries(columns)) validateColumn(`${table}.columns.${column}`, spec)

  if (primaryKey !== undefined && (typeof primaryKey !== 'string' || primaryKey === '')) {
    throw relationMapError(`${table}.primaryKey`, `expected a column name, got ${describeValue(primaryKey)}`)
  }
  const key = primaryKey ?? 'id'
  if (!Object.hasOwn(columns, key)) {
    const fix = primaryKey === undefined ? `declare the key column in columns, and name it in primaryKey if it is not 'id'` : `add it to columns${didYouMean(key, Object.keys(columns))}`
    throw relationMapError(`${table}.primaryKey`, `the primary key '${key}' is not among the columns of ${table}; ${fix}`)
  }

  if (relations !== undefined) {
    if (!isObject(relations)) throw relationMapError(`${table}.relations`, `expected an object of relation definitions, got ${describeValue(relations)}`)
    for (const [name, relation] of Object.entries(relations)) {
      if (name.includes('.') || name === '*') throw relationMapError(`${table}.relations.${name}`, `a relation name may not contain '.' or be '*', which relation paths use`)
      validateRelation(`${table}.relations.${name}`, relation, tables)
    }
  }
  if (scopes !== undefined) {
    if (!isObject(scopes)) throw relationMapError(`${table}.scopes`, `expected an object of scope functions, got ${describeValue(scopes)}`)
    for (const [name, scope] of Object.entries(scopes)) {
      if (typeof scope !== 'function') throw relationMapError(`${table}.scopes.${name}`, `expected a function (query) => void, got ${describeValue(scope)}`)
    }
  }
  if (guard !== undefined && typeof guard !== 'function') {
    throw relationMapError(`${table}.guard`, `expected a function (query, { table, context }) => void, got ${describeValue(guard)}`)
  }
}
