import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'

const DIGITS = /^\d{1,15}$/
const MANY_DIGITS = /^0*[1-9]\d{15,}$/

/**
 * Reads a whole number ≥ `min` (`offset`, `limit`, `page`); anything else is `invalid_number`, with
 * its own message for a number too large to represent exactly (more than 15 digits).
 */
export function parseInteger(value: RawValue, param: string, min: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && DIGITS.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(number) || number < min) {
    if ((typeof value === 'number' && value > Number.MAX_SAFE_INTEGER) || (typeof value === 'string' && MANY_DIGITS.test(value))) {
      throw new QueryParamsError(`Parameter '${param}' is a number too large to represent; it must have at most 15 digits.`, {
        code: 'invalid_number',
        param,
      })
    }
    throw new QueryParamsError(`Parameter '${param}' must be a whole number of at least ${min}.`, { code: 'invalid_number', param })
  }
  return number
}
