import { QueryParamsError, type QueryParamsErrorCode } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'

/** Reads a case-insensitive keyword such as `and`/`or` or `asc`/`desc`; missing gives `fallback`. */
export function parseChoice<T extends string>(
  value: RawValue,
  param: string,
  choices: readonly T[],
  fallback: T,
  code: QueryParamsErrorCode,
): T {
  if (value === undefined) return fallback
  const lower = typeof value === 'string' ? value.toLowerCase() : undefined
  const choice = choices.find((candidate) => candidate === lower)
  if (choice === undefined) {
    throw new QueryParamsError(`Parameter '${param}' must be one of ${choices.join(', ')}.`, { code, param, allowed: choices })
  }
  return choice
}
