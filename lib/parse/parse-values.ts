import { QueryParamsError, type QueryParamsErrorCode } from '../errors/query-params-error.ts'
import { readList } from './read-list.ts'
import { isRawObject, type RawValue } from './raw-value.ts'
import { OPERATORS, type Operator, type Order } from '../query-params.ts'

/**
 * Reads `<param>[<field>]`, a case-insensitive keyword such as `and`/`or` or `asc`/`desc`; missing
 * gives `fallback`. The path is only spelled out for an error.
 */
export function parseChoice<T extends string>(
  value: RawValue,
  param: string,
  field: string,
  choices: readonly T[],
  fallback: T,
  code: QueryParamsErrorCode,
): T {
  if (value === undefined) return fallback
  if (typeof value === 'string') {
    for (const choice of choices) if (choice === value) return choice
    const lower = value.toLowerCase()
    for (const choice of choices) if (choice === lower) return choice
  }
  const path = `${param}[${field}]`
  throw new QueryParamsError(`Parameter '${path}' must be one of ${choices.join(', ')}.`, {
    code,
    param: path,
    allowed: choices,
  })
}

const DIGITS = /^\d{1,15}$/
const MANY_DIGITS = /^0*[1-9]\d{15,}$/

/**
 * Reads a whole number ≥ `min` (`offset`, `limit`, `page`); anything else is `invalid_number`, with
 * its own message for a number too large to represent exactly (more than 15 digits).
 */
export function parseInteger(value: RawValue, param: string, min: number): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && DIGITS.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(number) || number < min) {
    if (
      (typeof value === 'number' && value > Number.MAX_SAFE_INTEGER) ||
      (typeof value === 'string' && MANY_DIGITS.test(value))
    ) {
      throw new QueryParamsError(
        `Parameter '${param}' is a number too large to represent; it must have at most 15 digits.`,
        {
          code: 'invalid_number',
          param,
        },
      )
    }
    throw new QueryParamsError(`Parameter '${param}' must be a whole number of at least ${min}.`, {
      code: 'invalid_number',
      param,
    })
  }
  return number
}

/** A list of names (`columns`, `with`, `scopes`, `relationsExists`, `distinct`) with the indices the client sent. */
export function parseNames(value: RawValue, param: string): { names: string[]; indices: Array<string | null> } {
  const names: string[] = []
  const indices: Array<string | null> = []
  for (const item of readList(value, param)) {
    names.push(parseName(item.value, item.index === null ? param : `${param}[${item.index}]`))
    indices.push(item.index)
  }
  return { names, indices }
}

/** One entry of a list of names, sent under `path`: a non-empty name, trimmed. */
export function parseName(value: RawValue, path: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new QueryParamsError(`Parameter '${path}' must be a non-empty name.`, {
      code: 'invalid_value',
      param: path,
    })
  }
  return value.trim()
}

const DIRECTIONS = ['asc', 'desc'] as const

/** Reads one `orders[i]` entry: `column` and `direction` (`asc`/`desc`, case-insensitive, default `asc`). */
export function parseOrder(raw: RawValue, param: string): Order {
  if (!isRawObject(raw)) {
    throw new QueryParamsError(`Parameter '${param}' must be an object with column and direction.`, {
      code: 'invalid_syntax',
      param,
    })
  }
  return orderFromFields(raw['column'], raw['direction'], param)
}

/** The order of the fields sent under `param` (see {@link parseOrder}), each `undefined` when it was not sent. */
export function orderFromFields(column: RawValue, direction: RawValue, param: string): Order {
  if (typeof column !== 'string' || column.trim() === '') {
    throw new QueryParamsError(`Parameter '${param}[column]' must name a column.`, {
      code: 'invalid_value',
      param: `${param}[column]`,
    })
  }
  return {
    column: column.trim(),
    direction: parseChoice(direction, param, 'direction', DIRECTIONS, 'asc', 'invalid_direction'),
  }
}

const byLowerCase = new Map<string, Operator>([
  ...OPERATORS.map((operator): [string, Operator] => [operator.toLowerCase(), operator]),
  ['<>', '!='],
  ['not in', 'notIn'],
  ['not between', 'notBetween'],
])

/** Reads `<param>[operator]` (case-insensitive; missing means `=`); `param` is the where's path, e.g. `wheres[2]`. */
export function parseOperator(value: RawValue, param: string): Operator {
  if (value === undefined) return '='
  const operator = typeof value === 'string' ? (exactly(value) ?? byLowerCase.get(value.toLowerCase())) : undefined
  if (operator === undefined) {
    const path = `${param}[operator]`
    throw new QueryParamsError(`Parameter '${path}' must be one of ${OPERATORS.join(', ')}.`, {
      code: 'invalid_operator',
      param: path,
      allowed: OPERATORS,
    })
  }
  return operator
}

/** The operator `value` spells exactly as the reference client sends it: compared, not hashed. */
function exactly(value: string): Operator | undefined {
  for (const operator of OPERATORS) if (operator === value) return operator
  return undefined
}
