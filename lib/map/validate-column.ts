import { OPERATORS } from '../query-params.ts'
import type { ColumnType } from '../relation-map.ts'
import { describeValue, isObject, didYouMean, relationMapError } from './relation-map-error.ts'
import { checkTextOnly } from './check-text-only.ts'

/** The column types, in the order error messages list them. */
export const COLUMN_TYPES: readonly ColumnType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'bigint',
  'decimal',
  'json',
]

const DEFINITION_KEYS = [
  'type',
  'nullable',
  'unique',
  'column',
  'storage',
  'sortable',
  'filterable',
  'operators',
  'precision',
  'values',
  'padded',
]
const STORAGES = ['text', 'iso', 'epoch_ms', 'epoch_s', 'date']

/**
 * Checks one column declaration at `path` (`users.columns.email`): a column type (`'string'`), or a
 * definition `{ type, nullable?, unique?, column?, sortable?, filterable?, operators? }` with a column type,
 * boolean flags, for a column the client names differently from the database the database column as a
 * non-empty string, and a non-empty list of known operators the type takes (`like` only on text).
 *
 * @throws {Error} naming the path and the fix.
 */
export function validateColumn(path: string, spec: unknown): void {
  if (typeof spec === 'string') return checkType(path, spec)
  if (!isObject(spec)) {
    throw relationMapError(
      path,
      `expected a column type (${COLUMN_TYPES.join(', ')}) or { type, nullable?, unique?, column? }, got ` +
        `${describeValue(spec)}`,
    )
  }
  for (const key of Object.keys(spec)) {
    if (!DEFINITION_KEYS.includes(key)) {
      throw relationMapError(
        `${path}.${key}`,
        `unknown key${didYouMean(key, DEFINITION_KEYS)}; a column definition takes ${DEFINITION_KEYS.join(', ')}`,
      )
    }
  }
  if (spec.type === undefined)
    throw relationMapError(`${path}.type`, `missing; a column definition needs its type (${COLUMN_TYPES.join(', ')})`)
  checkType(`${path}.type`, spec.type)
  for (const flag of ['nullable', 'unique', 'sortable', 'filterable', 'padded']) {
    const value = spec[flag]
    if (value !== undefined && typeof value !== 'boolean')
      throw relationMapError(`${path}.${flag}`, `expected true or false, got ${describeValue(value)}`)
  }
  if (spec.column !== undefined && (typeof spec.column !== 'string' || spec.column === '')) {
    throw relationMapError(`${path}.column`, `expected the database column's name, got ${describeValue(spec.column)}`)
  }
  if (
    spec.storage !== undefined &&
    (spec.type !== 'datetime' || typeof spec.storage !== 'string' || !STORAGES.includes(spec.storage))
  ) {
    throw relationMapError(
      `${path}.storage`,
      `expected ${STORAGES.join(', ')} on a datetime column, got ${describeValue(spec.storage)}`,
    )
  }
  const { precision } = spec
  if (precision !== undefined && (spec.type !== 'number' || (precision !== 'single' && precision !== 'double'))) {
    throw relationMapError(
      `${path}.precision`,
      `expected 'single' or 'double' on a number column, got ${describeValue(precision)}`,
    )
  }
  if (spec.type === 'json') checkJson(path, spec)
  if (spec.operators !== undefined) checkOperators(`${path}.operators`, spec.operators, spec.type, spec.filterable)
  checkTextOnly(path, spec)
}

/**
 * `operators`: a non-empty list of operators from the client's list, `like` only on a `string` column, not with
 * `filterable: false`.
 */
function checkOperators(path: string, operators: unknown, type: unknown, filterable: unknown): void {
  const known: readonly string[] = OPERATORS
  if (!Array.isArray(operators))
    throw relationMapError(path, `expected a list of operators (${known.join(', ')}), got ${describeValue(operators)}`)
  if (operators.length === 0)
    throw relationMapError(path, `an empty list allows no filter; declare filterable: false instead`)
  if (filterable === false)
    throw relationMapError(
      path,
      `the column is declared filterable: false, so no operator applies; remove one of the two`,
    )
  operators.forEach((operator: unknown, index) => {
    if (typeof operator !== 'string' || !known.includes(operator)) {
      const name = typeof operator === 'string' ? `'${operator}'` : describeValue(operator)
      throw relationMapError(
        `${path}.${index}`,
        `${name} is not an operator; expected one of ` +
          `${known.join(', ')}${typeof operator === 'string' ? didYouMean(operator, known) : ''}`,
      )
    }
    if (operator === 'like' && type !== 'string')
      throw relationMapError(
        `${path}.${index}`,
        `'like' only applies to string columns, and this one is ${describeValue(type)}`,
      )
  })
}

/** A `json` column is selectable only: `sortable: true`, `filterable: true` or `operators` on it is an error. */
function checkJson(path: string, spec: Record<string, unknown>): void {
  for (const key of ['sortable', 'filterable', 'operators']) {
    if (spec[key] === undefined || spec[key] === false) continue
    throw relationMapError(
      `${path}.${key}`,
      'a json column can be selected only (no order or filter compares JSON values the same way on every ' +
        `database); remove ${key}`,
    )
  }
}

function checkType(path: string, type: unknown): void {
  if (typeof type === 'string' && (COLUMN_TYPES as readonly string[]).includes(type)) return
  const name = typeof type === 'string' ? `'${type}'` : describeValue(type)
  throw relationMapError(
    path,
    `${name} is not a column type; expected one of ` +
      `${COLUMN_TYPES.join(', ')}${typeof type === 'string' ? didYouMean(type, COLUMN_TYPES) : ''}`,
  )
}
