import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ClientScalar, Operator, WhereDescription } from '../query-params.ts'
import { parseChoice, parseOperator } from './parse-values.ts'
import { isRawObject, type RawValue } from './raw-value.ts'
import { readList } from './read-list.ts'

/**
 * How many wildcards a `like` pattern has: each `%` and `_` not escaped by a backslash (a backslash escapes
 * the character after it, as `likePattern` writes the pattern for every database).
 */
export function likeWildcards(pattern: string): number {
  let count = 0
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    if (code === 92) i++
    else if (code === 37 || code === 95) count++
  }
  return count
}

/** Caps that apply to one where. */
export interface WhereLimits {
  maxInValues: number
  maxValueLength: number
  maxLikeWildcards: number
}

const LIST_OPERATORS: ReadonlySet<Operator> = new Set(['in', 'notIn', 'between', 'notBetween'])
const BOOLEANS = ['and', 'or'] as const
const NO_INDICES: ReadonlyArray<string | null> = Object.freeze([])

/**
 * Reads one `wheres[i]` entry (`param` is its path, e.g. `wheres[2]`): `column`, `operator` (default
 * `=`), `boolean` (default `and`) and a `value` of the shape the operator needs — a scalar, a list for
 * `in`/`notIn` (missing = empty), or exactly two values for `between`/`notBetween`. Also returns the
 * list indices the client sent for the value, for error paths.
 */
export function parseWhere(
  raw: RawValue,
  param: string,
  limits: WhereLimits,
): { where: WhereDescription; valueIndices: ReadonlyArray<string | null> } {
  if (!isRawObject(raw)) {
    throw new QueryParamsError(`Parameter '${param}' must be an object with column, operator, value and boolean.`, {
      code: 'invalid_syntax',
      param,
    })
  }
  return whereFromFields(raw['column'], raw['operator'], raw['boolean'], raw['value'], param, limits)
}

/**
 * The where of the fields sent under `param` (see {@link parseWhere}): each field as it arrived, `undefined` when it
 * was not sent. The fused reader calls this too, with the fields read straight from the query string.
 */
export function whereFromFields(
  column: RawValue,
  operatorSent: RawValue,
  booleanSent: RawValue,
  value: RawValue,
  param: string,
  limits: WhereLimits,
): { where: WhereDescription; valueIndices: ReadonlyArray<string | null> } {
  if (typeof column !== 'string' || column.trim() === '') {
    throw new QueryParamsError(`Parameter '${param}[column]' must name a column.`, {
      code: 'invalid_value',
      param: `${param}[column]`,
    })
  }
  const operator = parseOperator(operatorSent, param)
  const boolean = parseChoice(booleanSent, param, 'boolean', BOOLEANS, 'and', 'invalid_boolean')
  const where: WhereDescription = { column: column.trim(), operator, boolean }
  if (!LIST_OPERATORS.has(operator)) {
    where.value = scalar(value, param, undefined, limits, operator)
    if (operator === 'like' && where.value !== null)
      capWildcards(String(where.value), `${param}[value]`, limits.maxLikeWildcards)
    return { where, valueIndices: NO_INDICES }
  }
  const valueParam = `${param}[value]`
  const items = readList(value, valueParam)
  if (items.length > limits.maxInValues) {
    throw new QueryParamsError(`Parameter '${valueParam}' has more than ${limits.maxInValues} values.`, {
      code: 'limit_exceeded',
      param: valueParam,
    })
  }
  if ((operator === 'between' || operator === 'notBetween') && items.length !== 2) {
    throw new QueryParamsError(`Parameter '${valueParam}' must be exactly two values for '${operator}'.`, {
      code: 'invalid_value',
      param: valueParam,
    })
  }
  where.value = items.map((item) => scalar(item.value, param, item.index, limits, null))
  return { where, valueIndices: items.map((item) => item.index) }
}

/**
 * `limit_exceeded` past `max` wildcards in a `like` value: a pattern such as `%_%_%_…` makes the database's
 * matcher try many alignments against each row's text, and its work per row grows with the wildcards.
 */
function capWildcards(pattern: string, param: string, max: number): void {
  if (likeWildcards(pattern) <= max) return
  throw new QueryParamsError(
    `Parameter '${param}' has more than ${max} wildcards (% or _); escape a literal one with a backslash.`,
    {
      code: 'limit_exceeded',
      param,
    },
  )
}

/**
 * Checks one value: `index` is `undefined` for a where's only value, `null` for a bare scalar where a
 * list was expected, else the list index sent (`wheres[2][value][1]`). `operator` is set for a where's
 * only value, `null` for a list item.
 */
function scalar(
  value: RawValue,
  param: string,
  index: string | null | undefined,
  limits: WhereLimits,
  operator: Operator | null,
): ClientScalar {
  const tooLong = typeof value === 'string' && value.length > limits.maxValueLength
  if (!tooLong && value !== undefined && (typeof value !== 'object' || value === null)) return value
  const path = index === undefined || index === null ? `${param}[value]` : `${param}[value][${index}]`
  if (tooLong) {
    throw new QueryParamsError(`Parameter '${path}' is longer than ${limits.maxValueLength} characters.`, {
      code: 'limit_exceeded',
      param: path,
    })
  }
  const need = operator === null ? 'each value must be a single value' : `operator '${operator}' needs one value`
  throw new QueryParamsError(`Parameter '${path}' is not valid: ${need}.`, { code: 'invalid_value', param: path })
}
