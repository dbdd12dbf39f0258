import { QueryParamsError } from '../errors/query-params-error.ts'

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
