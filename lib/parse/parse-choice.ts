import { QueryParamsError, type QueryParamsErrorCode } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'

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
  throw new QueryParamsError(`Parameter '${path}' must be one of ${choices.join(', ')}.`, { code, param: path, allowed: choices })
}
