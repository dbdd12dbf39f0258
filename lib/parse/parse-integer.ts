import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'

const DIGITS = /^\d{1,15}$/

/** Reads a whole number ≥ `min` (`offset`, `limit`, `page`); anything else is `invalid_number`. */
export function parseInteger(value: RawValue, param: string, min: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && DIGITS.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(number) || number < min) {
    throw new QueryParamsError(`Parameter '${param}' must be a whole number of at least ${min}.`, { code: 'invalid_number', param })
  }
  return number
}
