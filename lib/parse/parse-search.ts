import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'
import { searchTerms } from './search-terms.ts'

/**
 * Reads the top-level `search` text: a string of at most `maxLength` characters and `maxWords` terms (see
 * {@link searchTerms}), `limit_exceeded` past either; anything but a string is `invalid_value`. A blank text is
 * no search (`undefined`), as the client sends for an empty search box.
 */
export function parseSearch(value: RawValue, param: string, maxLength: number, maxWords: number): string | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value !== 'string')
    throw new QueryParamsError(`Parameter '${param}' must be a text.`, { code: 'invalid_value', param })
  if (value.length > maxLength) {
    throw new QueryParamsError(`Parameter '${param}' is longer than ${maxLength} characters.`, {
      code: 'limit_exceeded',
      param,
    })
  }
  const terms = searchTerms(value)
  if (terms.length > maxWords) {
    throw new QueryParamsError(`Parameter '${param}' has more than ${maxWords} words.`, {
      code: 'limit_exceeded',
      param,
    })
  }
  return terms.length === 0 ? undefined : value
}
