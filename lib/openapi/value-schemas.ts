import { columnType } from '../map/columns.ts'
import type { ColumnSpec, ColumnType } from '../relation-map.ts'
import type { JsonSchema } from './json-schema.ts'

/** The exact text of a `bigint` value (within 64 bits: 18 digits always are) and of a `decimal` one. */
const EXACT_PATTERNS: Readonly<Record<'bigint' | 'decimal', string>> = {
  bigint: '^-?(0|[1-9][0-9]{0,17})$',
  decimal: '^-?(0|[1-9][0-9]{0,64})(\\.[0-9]{1,30})?$',
}

const NO_NUL = '^[^\\u0000]*$'

/**
 * The fixed values a column declares, read structurally: `values` (or `enum`) as a list of strings on a
 * column definition. Maps of this version declare none; a map whose column types list values gets an `enum`.
 */
export function enumOf(spec: ColumnSpec): readonly string[] | undefined {
  if (typeof spec !== 'object') return undefined
  const list = 'values' in spec ? spec.values : 'enum' in spec ? spec.enum : undefined
  return Array.isArray(list) && list.every((item) => typeof item === 'string') ? (list as string[]) : undefined
}

/**
 * The JSON Schema of a value a client sends for a column (not null), as it is before the query is encoded:
 * a number for `integer` and `number`, a boolean, `YYYY-MM-DD` for `date`, an ISO 8601 date-time, the exact
 * text of a `bigint` or `decimal`, text for `string` (at most `maxLength` characters, no NUL).
 */
export function requestValueSchema(spec: ColumnSpec, maxLength: number): JsonSchema {
  const type = columnType(spec)
  const values = enumOf(spec)
  if (values !== undefined) return { type: 'string', enum: [...values] }
  switch (type) {
    case 'string':
      return { type: 'string', maxLength, pattern: NO_NUL }
    case 'integer':
      return { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }
    case 'bigint':
    case 'decimal':
      return { type: 'string', pattern: EXACT_PATTERNS[type] }
    default:
      return typeSchema(type)
  }
}

/** The JSON Schema of the value a row carries for a column of `type` (`ColumnValues`); `null` too when `nullable`. */
export function responseValueSchema(type: ColumnType, nullable: boolean, values?: readonly string[]): JsonSchema {
  const schema = values === undefined ? typeSchema(type) : { type: 'string', enum: [...values] }
  if (!nullable || type === 'json') return schema
  const { type: jsonType, ...rest } = schema
  return values === undefined
    ? { type: [jsonType ?? 'string', 'null'], ...rest }
    : { type: ['string', 'null'], enum: [...values, null] }
}

function typeSchema(type: ColumnType): JsonSchema {
  switch (type) {
    case 'string':
      return { type: 'string' }
    case 'integer':
      return { type: 'integer' }
    case 'number':
      return { type: 'number' }
    case 'boolean':
      return { type: 'boolean' }
    case 'date':
      return { type: 'string', format: 'date' }
    case 'datetime':
      return { type: 'string', format: 'date-time' }
    case 'bigint':
    case 'decimal':
      return {
        type: 'string',
        pattern: type === 'bigint' ? '^-?(0|[1-9][0-9]{0,18})$' : EXACT_PATTERNS[type],
        'x-kqp-type': type,
      }
    case 'json':
      return { 'x-kqp-type': 'json' }
  }
}
