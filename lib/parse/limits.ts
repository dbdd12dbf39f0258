import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RawObject, RawValue } from './raw-value.ts'

/** Passes `key=value` pairs through, throwing `limit_exceeded` past `parameterLimit` of them. */
export function* limitPairs<T>(pairs: Iterable<T>, parameterLimit: number): Generator<T> {
  let count = 0
  for (const pair of pairs) {
    if (++count > parameterLimit) {
      throw new QueryParamsError(`The query has more than ${parameterLimit} parameters.`, {
        code: 'limit_exceeded',
        param: 'query',
      })
    }
    yield pair
  }
}

/**
 * Applies the query-string caps to an object a framework already parsed (e.g. with `qs`), so it cannot
 * carry more than a query string could: more than `parameterLimit` values (a scalar, or an empty list or
 * object, each counts as one) is `limit_exceeded` on `query`, and a value nested more than `depth` levels
 * below its top-level name is `limit_exceeded` on its bracket path. Top-level names failing `keep` are
 * skipped. The walk is iterative, so deep input cannot overflow the stack.
 */
export function limitParsedObject(
  input: RawObject,
  depth: number,
  parameterLimit: number,
  keep?: (name: string) => boolean,
): void {
  let values = 0
  const pending: Array<{ value: RawValue; path: string; level: number }> = []
  for (const name of Object.keys(input)) {
    if (keep === undefined || keep(name)) pending.push({ value: input[name], path: name, level: 0 })
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path, level } = next
    const children = typeof value === 'object' && value !== null ? Object.entries(value as RawObject) : []
    if (children.length === 0) {
      if (++values > parameterLimit) {
        throw new QueryParamsError(`The query has more than ${parameterLimit} parameters.`, {
          code: 'limit_exceeded',
          param: 'query',
        })
      }
      continue
    }
    if (level >= depth) {
      throw new QueryParamsError(`Parameter '${path}' is nested deeper than ${depth} levels.`, {
        code: 'limit_exceeded',
        param: path,
      })
    }
    for (const [key, child] of children) pending.push({ value: child, path: `${path}[${key}]`, level: level + 1 })
  }
}
