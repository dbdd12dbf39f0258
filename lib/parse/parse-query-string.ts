import { QueryParamsError } from '../errors/query-params-error.ts'
import { RawObjectBuilder } from './build-raw-object.ts'
import { canonicalKey } from './canonical-key.ts'
import { decodeComponent } from './decode-component.ts'
import { PARAMETER_KEYS, topLevelName } from './parameter-keys.ts'
import { queryOf } from './query-part.ts'
import type { RawObject } from './raw-value.ts'

const ENCODED_BRACKET = /%5[bd]/i

/**
 * Parses a raw query string into a nested object exactly as `qs.parse(s, { strictNullHandling: true })`
 * reads the bracket format (differentially fuzz-tested against it), several times faster, or throws a
 * {@link QueryParamsError} where qs would guess (see {@link RawObjectBuilder}). The input may also be
 * `?…`, or a path or URL (`/users?…`, `https://…/users?…#…`), whose query alone is read. More than
 * `parameterLimit` pairs is `limit_exceeded`. Unlike qs, under a query parameter's name, a value whose
 * percent escapes are not UTF-8 (`%FF%FE`) is `invalid_value`, and such a key `invalid_syntax`. Keys
 * whose top-level name fails `keep` are skipped unread.
 */
export function parseQueryString(
  input: string,
  depth: number,
  parameterLimit: number,
  keep?: (name: string) => boolean,
): RawObject {
  let text = queryOf(input)
  // qs reads `%5B`/`%5D` as brackets before anything else, in keys and values alike.
  if (text.includes('%5') && ENCODED_BRACKET.test(text)) text = text.replace(/%5B/gi, '[').replace(/%5D/gi, ']')
  const builder = new RawObjectBuilder(depth, keep)
  const length = text.length
  let count = 0
  let start = 0
  // The next `]=` and `=` at or after `start`, found once and reused until passed, so pairs without
  // them do not each rescan the rest of the text.
  let bracketEquals = -2
  let equals = -2
  while (start < length) {
    let end = text.indexOf('&', start)
    if (end === -1) end = length
    if (end > start) {
      if (++count > parameterLimit) {
        throw new QueryParamsError(`The query has more than ${parameterLimit} parameters.`, {
          code: 'limit_exceeded',
          param: 'query',
        })
      }
      if (bracketEquals !== -1 && bracketEquals < start) bracketEquals = text.indexOf(']=', start)
      if (equals !== -1 && equals < start) equals = text.indexOf('=', start)
      // As qs: a `]=` ends the key (`a[b=c]=d` has the key `a[b=c]`), else the first `=` does.
      const keyEnd =
        bracketEquals !== -1 && bracketEquals < end ? bracketEquals + 1 : equals !== -1 && equals < end ? equals : end
      const value = keyEnd === end ? null : decodeComponent(text.slice(keyEnd + 1, end))
      const canonical = canonicalKey(text, start, keyEnd, depth)
      if (canonical !== undefined && value !== undefined)
        builder.addSegments(canonical.segments, canonical.parent, value, text.slice(start, keyEnd))
      else {
        const sent = text.slice(start, keyEnd)
        const key = canonical === undefined ? decodeComponent(sent) : sent
        if (key !== undefined && value !== undefined) builder.add(key, value)
        else builder.add(...notUtf8(sent, key, value, text.slice(keyEnd + 1, end)))
      }
    }
    start = end + 1
  }
  return builder.root
}

/**
 * A pair whose key (`key` is `undefined`) or value has percent escapes that are not UTF-8: under a query
 * parameter's name it is rejected, the key `invalid_syntax`, the value `invalid_value`; under any other
 * name it is kept as sent, as qs keeps it (and skipped or rejected with the other unknown names).
 */
function notUtf8(
  sent: string,
  key: string | undefined,
  value: string | null | undefined,
  sentValue: string,
): [string, string | null] {
  if (!PARAMETER_KEYS.has(topLevelName(key ?? sent)))
    return [key ?? plusAsSpace(sent), value === undefined ? plusAsSpace(sentValue) : value]
  const what = key === undefined ? 'key' : 'value'
  throw new QueryParamsError(`Parameter '${key ?? sent}' has a percent-encoded ${what} that is not valid UTF-8.`, {
    code: key === undefined ? 'invalid_syntax' : 'invalid_value',
    param: key ?? sent,
  })
}

const plusAsSpace = (text: string): string => text.replace(/\+/g, ' ')
