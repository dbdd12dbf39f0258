import { buildRawObject } from './build-raw-object.ts'
import { decodeComponent } from './decode-component.ts'
import { limitPairs } from './limit-pairs.ts'
import type { RawObject } from './raw-value.ts'

/**
 * Parses a raw query string (with or without `?`, or a whole URL path such as `/users?…`) into a
 * nested object, the way `qs.parse(s, { strictNullHandling: true })` reads the bracket format but
 * several times faster. More than `parameterLimit` pairs is `limit_exceeded`. Keys whose top-level
 * name fails `keep` are skipped unread.
 */
export function parseQueryString(
  input: string,
  depth: number,
  parameterLimit: number,
  keep?: (name: string) => boolean,
): RawObject {
  const question = input.indexOf('?')
  let text = question === -1 ? input : input.slice(question + 1)
  const hash = text.indexOf('#')
  if (hash !== -1) text = text.slice(0, hash)
  return buildRawObject(limitPairs(pairsOf(text), parameterLimit), depth, keep)
}

function* pairsOf(text: string): Generator<[string, string | null]> {
  let start = 0
  while (start <= text.length) {
    let end = text.indexOf('&', start)
    if (end === -1) end = text.length
    if (end > start) {
      const part = text.slice(start, end)
      const equals = part.indexOf('=')
      yield equals === -1
        ? [decodeComponent(part), null]
        : [decodeComponent(part.slice(0, equals)), decodeComponent(part.slice(equals + 1))]
    }
    start = end + 1
  }
}
