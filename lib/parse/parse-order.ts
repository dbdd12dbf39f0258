import { QueryParamsError } from '../errors/query-params-error.ts'
import type { Order } from '../query-params.ts'
import { parseChoice } from './parse-choice.ts'
import { isRawObject, type RawValue } from './raw-value.ts'

const DIRECTIONS = ['asc', 'desc'] as const

/** Reads one `orders[i]` entry: `column` and `direction` (`asc`/`desc`, case-insensitive, default `asc`). */
export function parseOrder(raw: RawValue, param: string): Order {
  if (!isRawObject(raw)) {
    throw new QueryParamsError(`Parameter '${param}' must be an object with column and direction.`, { code: 'invalid_syntax', param })
  }
  const column = raw['column']
  if (typeof column !== 'string' || column.trim() === '') {
    throw new QueryParamsError(`Parameter '${param}[column]' must name a column.`, { code: 'invalid_value', param: `${param}[column]` })
  }
  const direction = parseChoice(raw['direction'], param, 'direction', DIRECTIONS, 'asc', 'invalid_direction')
  return { column: column.trim(), direction }
}
