import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawValue } from './raw-value.ts'

/** The longest cursor read: a position of a dozen long values, signed, is far shorter. */
export const MAX_CURSOR_LENGTH = 2_048

const CURSOR_TEXT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/**
 * Reads `cursor`: one opaque token of base64url text, at most {@link MAX_CURSOR_LENGTH} characters; anything else
 * (a list, an object, `null`, other characters) is `invalid_cursor`. Whether it is genuine is `cursorPaginate`'s check.
 */
export function parseCursor(value: RawValue, param: string): string {
  if (typeof value !== 'string' || value.length > MAX_CURSOR_LENGTH || !CURSOR_TEXT.test(value)) {
    throw new QueryParamsError(`Parameter '${param}' is not a cursor this server issued.`, {
      code: 'invalid_cursor',
      param,
    })
  }
  return value
}
