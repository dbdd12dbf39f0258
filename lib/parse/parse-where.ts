import { QueryParamsError } from '../errors/query-params-error.ts'
import type { ClientScalar, Operator, WhereDescription } from '../query-params.ts'
import { parseChoice } from './parse-choice.ts'
import { parseOperator } from './parse-operator.ts'
import { isRawObject, type RawValue } from './raw-value.ts'
import { readList } from './read-list.ts'

/** Caps that apply to one where. */
export interface WhereLimits {
  maxInValues: number
  maxValueLength: number
}

const LIST_OPERATORS: ReadonlySet<Operator> = new Set(['in', 'notIn', 'between', 'notBetween'])

/**
 * Reads one `wheres[i]` entry: `column`, `operator` (default `=`), `boolean` (default `and`) and a
 * `value` of the shape the operator needs — a scalar, a list for `in`/`notIn` (missing = empty), or
 * exactly two values for `between`/`notBetween`.
 */
export function parseWhere(raw: RawValue, param: string, limits: WhereLimits): { where: WhereDescription; valueIndices: Array<string | null> } {
  if (!isRawObject(raw)) {
    throw new QueryParamsError(`Parameter '${param}' must be an object with column, operator, value and boolean.`, {
      code: 'invalid_syntax',
      param,
    })
  }
  const column = raw['column']
  if (typeof column !== 'string' || column.trim() === '') {
    throw new QueryParamsError(`Parameter '${param}[column]' must name a column.`, { code: 'invalid_value', param: `${param}[column]` })
  }
  const operator = parseOperator(raw['operator'], `${param}[operator]`)
  const boolean = parseChoice(raw['boolean'], `${param}[boolean]`, ['and', 'or'], 'and', 'invalid_boolean')
  const valueParam = `${param}[value]`
  const where: WhereDescription = { column: column.trim(), operator, boolean }
  if (!LIST_OPERATORS.has(operator)) {
    where.value = scalar(raw['value'], valueParam, limits, `operator '${operator}' needs one value`)
    return { where, valueIndices: [] }
  }
  const items = readList(raw['value'], valueParam)
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
  where.value = items.map((item) =>
    scalar(item.value, item.index === null ? valueParam : `${valueParam}[${item.index}]`, limits, 'each value must be a single value'),
  )
  return { where, valueIndices: items.map((item) => item.index) }
}

function scalar(value: RawValue, param: string, limits: WhereLimits, need: string): ClientScalar {
  if (value === undefined || (typeof value === 'object' && value !== null)) {
    throw new QueryParamsError(`Parameter '${param}' is not valid: ${need}.`, { code: 'invalid_value', param })
  }
  if (typeof value === 'string' && value.length > limits.maxValueLength) {
    throw new QueryParamsError(`Parameter '${param}' is longer than ${limits.maxValueLength} characters.`, {
      code: 'limit_exceeded',
      param,
    })
  }
  return value
}
