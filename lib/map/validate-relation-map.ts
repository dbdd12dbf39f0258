import type { RelationMap } from '../relation-map.ts'
import { describeValue, isObject, didYouMean, relationMapError } from './relation-map-error.ts'
import { databaseColumn, spellingsOf } from './columns.ts'
import { checkAggregates } from './check-aggregates.ts'
import { checkRelationKeys } from './check-relation-keys.ts'
import { checkSearch } from './check-search.ts'
import { validateColumn } from './validate-column.ts'
import { validateRelation } from './validate-relation.ts'

const TABLE_KEYS = ['primaryKey', 'columns', 'relations', 'aggregates', 'scopes', 'guard', 'search']

/**
 * Checks a whole relation map, table by table: known keys only, `columns` with valid column types,
 * distinct database columns and no two names of one spelling (`createdAt`, `created_at`), a `primaryKey` (default
 * `id`; a list of distinct columns for a composite key)
 * among the columns, valid relations whose tables the map defines and whose keys do not default to a
 * composite primary key, to-many `limit`/`orders` on columns of the related table, scopes and `guard` that are
 * functions,
 * and `aggregates` over those relations (see `checkAggregates`). Found mistakes are bugs in the server's code, so
 * they are plain
 * `Error`s naming the path and the fix, never a `QueryParamsError`.
 *
 * @throws {Error} e.g. `knex-query-params: users.relations.posts.type: 'hasmany' is not a relation type; expected one
 * of …`
 */
export function validateRelationMap(map: unknown): asserts map is RelationMap {
  if (!isObject(map)) {
    throw new Error(
      `knex-query-params: the relation map must be an object of table definitions ({ users: { columns: { … } } }), ` +
        `got ${describeValue(map)}`,
    )
  }
  const tables = new Set(Object.keys(map))
  for (const [table, definition] of Object.entries(map)) validateTable(table, definition, tables)
  checkRelationKeys(map as RelationMap)
  checkRelationOrders(map as RelationMap)
  checkAggregates(map as RelationMap)
  checkSearch(map as RelationMap)
}

function validateTable(table: string, definition: unknown, tables: ReadonlySet<string>): void {
  if (!isObject(definition)) {
    throw relationMapError(
      table,
      `expected a table definition ({ columns, relations?, scopes?, primaryKey?, guard? }), got ` +
        `${describeValue(definition)}`,
    )
  }
  for (const key of Object.keys(definition)) {
    if (!TABLE_KEYS.includes(key))
      throw relationMapError(
        `${table}.${key}`,
        `unknown key${didYouMean(key, TABLE_KEYS)}; a table takes ${TABLE_KEYS.join(', ')}`,
      )
  }
  const { columns, primaryKey, relations, scopes, guard } = definition
  if (!isObject(columns)) {
    throw relationMapError(
      `${table}.columns`,
      `expected the allow-listed columns ({ id: 'integer', … }), got ${describeValue(columns)}`,
    )
  }
  for (const [column, spec] of Object.entries(columns)) validateColumn(`${table}.columns.${column}`, spec)

  const databaseColumns = checkDatabaseColumns(table, columns as RelationMap[string]['columns'])
  checkSpellings(table, Object.keys(columns))
  checkPrimaryKey(table, primaryKey, databaseColumns)

  if (relations !== undefined) {
    if (!isObject(relations))
      throw relationMapError(
        `${table}.relations`,
        `expected an object of relation definitions, got ${describeValue(relations)}`,
      )
    for (const [name, relation] of Object.entries(relations)) {
      if (name.includes('.') || name === '*')
        throw relationMapError(
          `${table}.relations.${name}`,
          `a relation name may not contain '.' or be '*', which relation paths use`,
        )
      validateRelation(`${table}.relations.${name}`, relation, tables)
    }
  }
  if (scopes !== undefined) {
    if (!isObject(scopes))
      throw relationMapError(`${table}.scopes`, `expected an object of scope functions, got ${describeValue(scopes)}`)
    for (const [name, scope] of Object.entries(scopes)) {
      if (typeof scope !== 'function')
        throw relationMapError(
          `${table}.scopes.${name}`,
          `expected a function (query) => void, got ${describeValue(scope)}`,
        )
    }
  }
  if (guard !== undefined && typeof guard !== 'function') {
    throw relationMapError(
      `${table}.guard`,
      `expected a function (query, { table, context }) => void, got ${describeValue(guard)}`,
    )
  }
}

/**
 * A client may name a column in snake_case or camelCase, whatever naming the map uses, so two columns whose
 * names differ only in that (`createdAt` and `created_at`) could not be told apart.
 */
function checkSpellings(table: string, names: readonly string[]): void {
  spellingsOf(names, (name, other) => {
    throw relationMapError(
      `${table}.columns.${name}`,
      `'${name}' and '${other}' are one name to a client, which may send either spelling (snake_case or camelCase); ` +
        `declare one of them, or give one another client name with { column: '${name}' }`,
    )
  })
}

/**
 * The database column of each declared column, keyed by database column. Two client names for one database
 * column, or a client name that is another column's database name, would make keys and guards ambiguous.
 */
function checkDatabaseColumns(table: string, columns: RelationMap[string]['columns']): Map<string, string> {
  const byDatabaseColumn = new Map<string, string>()
  for (const name of Object.keys(columns)) {
    const column = databaseColumn({ [table]: { columns } }, table, name)
    const other = byDatabaseColumn.get(column)
    if (other !== undefined) {
      throw relationMapError(
        `${table}.columns.${name}`,
        `the database column '${column}' is already declared as '${other}'; declare each database column once`,
      )
    }
    byDatabaseColumn.set(column, name)
  }
  for (const [column, name] of byDatabaseColumn) {
    const owner = byDatabaseColumn.get(name)
    if (column !== name && owner !== undefined) {
      throw relationMapError(
        `${table}.columns.${name}`,
        `the client name '${name}' is the database column of '${owner}'; keys and guards name database columns, so ` +
          `pick another client name`,
      )
    }
  }
  return byDatabaseColumn
}

function checkPrimaryKey(table: string, primaryKey: unknown, databaseColumns: ReadonlyMap<string, string>): void {
  const path = `${table}.primaryKey`
  if (Array.isArray(primaryKey)) {
    if (primaryKey.length === 0)
      throw relationMapError(path, `expected a column name or a non-empty list of column names, got an empty array`)
    primaryKey.forEach((key: unknown, index) => {
      if (typeof key !== 'string' || key === '')
        throw relationMapError(`${path}.${index}`, `expected a column name, got ${describeValue(key)}`)
      if (primaryKey.indexOf(key) !== index)
        throw relationMapError(`${path}.${index}`, `'${key}' is already in the key; list each key column once`)
    })
  } else if (primaryKey !== undefined && (typeof primaryKey !== 'string' || primaryKey === '')) {
    throw relationMapError(path, `expected a column name or a list of column names, got ${describeValue(primaryKey)}`)
  }
  const keys: readonly string[] =
    primaryKey === undefined ? ['id'] : typeof primaryKey === 'string' ? [primaryKey] : primaryKey
  for (const key of keys) {
    if (databaseColumns.has(key)) continue
    const aliased = [...databaseColumns].find(([, name]) => name === key)?.[0]
    if (aliased !== undefined)
      throw relationMapError(path, `'${key}' is a client name; primaryKey names database columns, here '${aliased}'`)
    const fix =
      primaryKey === undefined
        ? `declare the key column in columns, and name it in primaryKey if it is not 'id'`
        : `add it to columns${didYouMean(key, databaseColumns.keys())}`
    throw relationMapError(path, `the primary key '${key}' is not among the columns of ${table}; ${fix}`)
  }
}

const validated = new WeakSet<object>()

/**
 * Validates `map` the first time it is seen and remembers the object, so each later call costs one
 * `WeakSet` lookup. A map changed after its first use is not checked again. A map that fails is not
 * remembered, so every call with it throws.
 *
 * @throws {Error} the first mistake of the map (see {@link validateRelationMap}).
 */
export function ensureValidRelationMap(map: RelationMap): void {
  if (validated.has(map)) return
  validateRelationMap(map)
  validated.add(map)
}

/**
 * Checks that the `orders` of every to-many relation name columns of the related table's allow-list (their
 * client names), once every table is known valid.
 *
 * @throws {Error} naming the order to fix, e.g. `users.relations.posts.orders[0].column: …`.
 */
export function checkRelationOrders(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      if (!('orders' in relation) || relation.orders === undefined) continue
      const columns = Object.keys(map[relation.table]?.columns ?? {})
      relation.orders.forEach((order, index) => {
        if (columns.includes(order.column)) return
        throw relationMapError(
          `${table}.relations.${name}.orders[${index}].column`,
          `'${order.column}' is not a column of ${relation.table}${didYouMean(order.column, columns)}; orders name ` +
            `columns of the related table's allow-list`,
        )
      })
    }
  }
}
