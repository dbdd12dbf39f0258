import { describeValue, isObject, didYouMean, relationMapError } from './relation-map-error.ts'
import { RELATION_KINDS, RELATION_TYPES, type RelationKeyKind } from './relation-kinds.ts'

/**
 * Checks one relation definition of the map at `path` (`users.relations.posts`): a known `type`, every key
 * that type requires with a value of the right kind, no unknown key, and target tables (`table`, each table
 * of a morphTo's `types`) that the map defines. Key columns are not checked against `columns`: a key need
 * not be allow-listed (it is then selected for matching only and removed from the rows).
 *
 * @throws {Error} naming the path and the fix.
 */
export function validateRelation(path: string, definition: unknown, tables: ReadonlySet<string>): void {
  if (!isObject(definition)) {
    throw relationMapError(
      path,
      `expected a relation definition ({ type, table, … }), got ${describeValue(definition)}`,
    )
  }
  const type = definition.type
  if (type === undefined)
    throw relationMapError(`${path}.type`, `missing; expected one of ${RELATION_TYPES.join(', ')}`)
  if (typeof type !== 'string' || !Object.hasOwn(RELATION_KINDS, type)) {
    const name = typeof type === 'string' ? `'${type}'` : describeValue(type)
    throw relationMapError(
      `${path}.type`,
      `${name} is not a relation type; expected one of ` +
        `${RELATION_TYPES.join(', ')}${typeof type === 'string' ? didYouMean(type, RELATION_TYPES) : ''}`,
    )
  }
  const { keys } = RELATION_KINDS[type as keyof typeof RELATION_KINDS]
  const takes = ['type', ...Object.keys(keys.required), ...Object.keys(keys.optional)]
  for (const key of Object.keys(definition)) {
    if (!takes.includes(key)) {
      throw relationMapError(
        `${path}.${key}`,
        `unknown key${didYouMean(key, takes)}; a ${type} relation takes ${takes.join(', ')}`,
      )
    }
  }
  for (const [key, kind] of Object.entries(keys.required)) {
    const value = definition[key]
    if (value === undefined) {
      throw relationMapError(
        `${path}.${key}`,
        `missing; a ${type} relation needs ${Object.keys(keys.required).join(', ')}`,
      )
    }
    checkValue(`${path}.${key}`, kind, value, tables)
  }
  for (const [key, kind] of Object.entries(keys.optional)) {
    const value = definition[key]
    if (value !== undefined) checkValue(`${path}.${key}`, kind, value, tables)
  }
  checkKeyPairs(path, definition)
  if (definition.orders !== undefined && definition.limit === undefined) {
    throw relationMapError(
      `${path}.orders`,
      `orders the rows of each parent's top N, so it needs limit (the most rows each parent gets)`,
    )
  }
}

function checkValue(path: string, kind: RelationKeyKind, value: unknown, tables: ReadonlySet<string>): void {
  switch (kind) {
    case 'boolean':
      if (typeof value !== 'boolean')
        throw relationMapError(path, `expected true or false, got ${describeValue(value)}`)
      return
    case 'column':
      if (typeof value !== 'string' || value === '')
        throw relationMapError(path, `expected a column name, got ${describeValue(value)}`)
      return
    case 'key':
      checkKey(path, value)
      return
    case 'text':
      if (typeof value !== 'string' || value === '')
        throw relationMapError(path, `expected a non-empty string, got ${describeValue(value)}`)
      return
    case 'table':
      checkTable(path, value, tables)
      return
    case 'types':
      if (!isObject(value) || Object.keys(value).length === 0) {
        throw relationMapError(
          path,
          `expected an object mapping each value of the type column to a table of the map (e.g. { User: 'users' }), ` +
            `got ${describeValue(value)}`,
        )
      }
      for (const [typeValue, table] of Object.entries(value)) checkTable(`${path}.${typeValue}`, table, tables)
      return
    case 'limit':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        throw relationMapError(
          path,
          `expected the most related rows each parent gets, a positive integer, got ${describeValue(value)}`,
        )
      }
      return
    case 'orders':
      checkOrders(path, value)
  }
}

/** A relation key: a column name, or the columns of a composite key (two or more distinct names). */
function checkKey(path: string, value: unknown): void {
  if (typeof value === 'string' && value !== '') return
  if (!Array.isArray(value)) throw relationMapError(path, `expected a column name, got ${describeValue(value)}`)
  if (value.length < 2)
    throw relationMapError(
      path,
      `expected a column name, or the columns of a composite key (two or more, e.g. ['rental_id', 'rental_date']), ` +
        `got a list of ${value.length}`,
    )
  value.forEach((column: unknown, index) => {
    if (typeof column !== 'string' || column === '')
      throw relationMapError(`${path}[${index}]`, `expected a column name, got ${describeValue(column)}`)
    if (value.indexOf(column) !== index)
      throw relationMapError(`${path}[${index}]`, `'${column}' is named twice in the key`)
  })
}

/** The two sides of a relation key, as a definition names them: `foreignKey` and `ownerKey` or `localKey`. */
const PAIRED = [
  ['foreignKey', 'ownerKey'],
  ['foreignKey', 'localKey'],
] as const

/**
 * A composite key on one side needs one of the same length on the other, when that side is named: `foreignKey:
 * ['a', 'b']` with `ownerKey: 'id'` (or `ownerKey: ['x']`) is a mistake. A side left out defaults to the primary
 * key, checked once every table is known (`checkRelationKeys`).
 */
function checkKeyPairs(path: string, definition: Record<string, unknown>): void {
  for (const [first, second] of PAIRED) {
    const left = definition[first]
    const right = definition[second]
    if (left === undefined || right === undefined) continue
    const composite = Array.isArray(left)
    if (composite !== Array.isArray(right))
      throw relationMapError(
        `${path}.${second}`,
        `${first} is ${composite ? `a composite key of ${(left as unknown[]).length} columns` : 'one column'}, so ` +
          `${second} must be ${composite ? 'a list of as many columns' : 'one column too'}, got ${describeValue(right)}`,
      )
    if (composite && (left as unknown[]).length !== (right as unknown[]).length)
      throw relationMapError(
        `${path}.${second}`,
        `${first} names ${(left as unknown[]).length} columns and ${second} ${(right as unknown[]).length}; the ` +
          `columns of a composite key are paired in order, so name as many on each side`,
      )
  }
}

const DIRECTIONS = ['asc', 'desc']

/**
 * `orders` of a to-many relation: a list of `{ column, direction }` (the columns are checked against the related table
 * later).
 */
function checkOrders(path: string, value: unknown): void {
  if (!Array.isArray(value) || value.length === 0) {
    throw relationMapError(
      path,
      `expected a non-empty list of { column, direction } (e.g. [{ column: 'created_at', direction: 'desc' }]), got ` +
        `${describeValue(value)}`,
    )
  }
  value.forEach((order: unknown, index) => {
    const at = `${path}[${index}]`
    if (!isObject(order)) throw relationMapError(at, `expected { column, direction }, got ${describeValue(order)}`)
    for (const key of Object.keys(order)) {
      if (key !== 'column' && key !== 'direction')
        throw relationMapError(`${at}.${key}`, `unknown key; an order takes column, direction`)
    }
    if (typeof order.column !== 'string' || order.column === '')
      throw relationMapError(
        `${at}.column`,
        `expected a column of the related table, got ${describeValue(order.column)}`,
      )
    if (typeof order.direction !== 'string' || !DIRECTIONS.includes(order.direction)) {
      throw relationMapError(`${at}.direction`, `expected 'asc' or 'desc', got ${describeValue(order.direction)}`)
    }
  })
}

function checkTable(path: string, value: unknown, tables: ReadonlySet<string>): void {
  if (typeof value !== 'string' || value === '')
    throw relationMapError(path, `expected a table name, got ${describeValue(value)}`)
  if (!tables.has(value)) {
    throw relationMapError(
      path,
      `table '${value}' is not in the relation map${didYouMean(value, tables)}; add it with its columns, or fix the ` +
        `name`,
    )
  }
}
