import { buildRawObject } from './build-raw-object.ts'
import { limitPairs, limitParsedObject } from './limits.ts'
import { parseQueryString } from './parse-query-string.ts'
import type { RawObject, RawValue } from './raw-value.ts'

/** What `parseQueryParams` accepts: a raw query string, `URLSearchParams`, or an object from a framework. */
export type QueryParamsInput = string | URLSearchParams | Readonly<Record<string, unknown>>

/**
 * Turns any accepted input into one nested raw object. An object whose keys still carry brackets
 * (`node:querystring`, Express 5, Fastify) is read pair by pair; any other object is taken as already
 * parsed (e.g. by `qs`), under the same `depth` and `parameterLimit` caps.
 */
export function readInput(
  input: QueryParamsInput,
  depth: number,
  parameterLimit: number,
  keep?: (name: string) => boolean,
): RawObject {
  if (typeof input === 'string') return parseQueryString(input, depth, parameterLimit, keep)
  if (input instanceof URLSearchParams) return buildRawObject(limitPairs(input.entries(), parameterLimit), depth, keep)
  const entries = Object.entries(input)
  if (entries.some(([key]) => key.includes('[')))
    return buildRawObject(limitPairs(flatPairs(entries), parameterLimit), depth, keep)
  limitParsedObject(input as RawObject, depth, parameterLimit, keep)
  return input as RawObject
}

function* flatPairs(entries: ReadonlyArray<[string, unknown]>): Generator<[string, string | null]> {
  for (const [key, value] of entries) {
    if (Array.isArray(value)) {
      for (const item of value) yield [key, scalarText(item)]
    } else if (value !== undefined) {
      yield [key, scalarText(value)]
    }
  }
}

function scalarText(value: unknown): string | null {
  return value === null ? null : typeof value === 'string' ? value : String(value as RawValue)
}
