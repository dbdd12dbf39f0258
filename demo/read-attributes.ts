import { QueryParamsError, type ColumnType, type TableDefinition } from '../lib/index.ts'
import { SERVER_COLUMNS, type WriteRules } from './resources.ts'
import { databaseTimestamp } from './timestamp.ts'
import { columnType } from '../lib/map/columns.ts'

/** A value as the demo writes it to any of its databases. */
export type DatabaseValue = string | number | boolean | null

const INTEGER = /^[+-]?\d{1,15}$/
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/
const DATETIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i
const BIGINT = /^[+-]?\d{1,19}$/
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)$/
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false }

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/**
 * Reads the attributes of a `POST` or `PATCH` JSON body: every key must be an allow-listed column of the
 * table (snake_case or camelCase), each value is coerced to the column's declared type, and the columns
 * the server owns (`id`, `created_at`, `updated_at`) are ignored. A `POST` must carry the `required`
 * attributes. Anything else is a {@link QueryParamsError} (400) naming the attribute.
 *
 * @example
 * readAttributes({ title: 'Hi', userId: '1' }, relationMap.posts, WRITE_RULES.posts, 'create')
 * // { title: 'Hi', user_id: 1 }
 */
export function readAttributes(
  body: unknown,
  table: TableDefinition,
  rules: WriteRules,
  mode: 'create' | 'update',
): Record<string, DatabaseValue> {
  const source: unknown = body === undefined || body === null || body === '' ? {} : body
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new QueryParamsError('The request body must be a JSON object of attributes.', {
      code: 'invalid_value',
      param: 'body',
    })
  }
  const writable = Object.keys(table.columns).filter((column) => !SERVER_COLUMNS.has(column))
  const attributes: Record<string, DatabaseValue> = {}
  for (const [name, value] of Object.entries(source)) {
    const column = [name, snakeCase(name)].find((candidate) => Object.hasOwn(table.columns, candidate))
    if (column !== undefined && SERVER_COLUMNS.has(column)) continue
    const spec = column === undefined ? undefined : table.columns[column]
    const type = spec === undefined ? undefined : columnType(spec)
    if (column === undefined || type === undefined) {
      throw new QueryParamsError(`Attribute '${name}' cannot be written.`, {
        code: 'unknown_column',
        param: name,
        allowed: writable,
      })
    }
    attributes[column] = coerce(type, value, name)
  }
  if (mode === 'create') {
    for (const column of rules.required) {
      if (attributes[column] === undefined || attributes[column] === null) {
        throw new QueryParamsError(`Attribute '${column}' is required.`, { code: 'invalid_value', param: column })
      }
    }
  }
  return attributes
}

function coerce(type: ColumnType, value: unknown, param: string): DatabaseValue {
  if (value === null) return null
  const text =
    typeof value === 'string'
      ? value.trim()
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : undefined
  if (text !== undefined) {
    switch (type) {
      case 'string':
        if (typeof value === 'string') return value
        break
      case 'integer':
        if (INTEGER.test(text)) return Number(text)
        break
      case 'number':
        if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text)
        break
      case 'boolean': {
        const boolean = BOOLEANS[text.toLowerCase()]
        if (boolean !== undefined) return boolean
        break
      }
      case 'date':
        if (DATE.test(text) && instant(text)?.toISOString().slice(0, 10) === text) return text
        break
      case 'datetime': {
        const date = DATETIME.test(text) ? instant(text) : undefined
        if (date !== undefined) return databaseTimestamp(date)
        break
      }
      case 'bigint':
        if (BIGINT.test(text)) return text
        break
      case 'decimal':
        if (DECIMAL.test(text)) return text
        break
    }
  }
  throw new QueryParamsError(`Attribute '${param}' must be ${EXPECTED[type]}.`, { code: 'invalid_value', param })
}

/** An ISO 8601 date or date-time as an instant; no offset means UTC. */
function instant(text: string): Date | undefined {
  const [day = '', time = '00:00:00'] = text.split(/[T ]/i)
  const zoned = /(z|[+-]\d{2}:?\d{2})$/i.test(time) ? time : `${time}Z`
  const date = new Date(`${day}T${zoned}`)
  return Number.isNaN(date.getTime()) ? undefined : date
}

const EXPECTED: Readonly<Record<ColumnType, string>> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  date: 'a date (YYYY-MM-DD)',
  datetime: 'an ISO 8601 date-time',
  json: 'a JSON value',
  bigint: 'a whole number (as text beyond 2^53)',
  decimal: 'a decimal number',
}
