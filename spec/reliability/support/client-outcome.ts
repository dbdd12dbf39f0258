import { QueryParamsError } from '../../../lib/errors/query-params-error.ts'
import type { Row } from '../../support/rows.ts'
import { expectWellFormedError } from './expect-well-formed-error.ts'

/** What a client request came to: rows, or a 400 `QueryParamsError`. Anything else is thrown. */
export type Outcome = { kind: 'rows'; rows: Row[] } | { kind: 'rejected'; error: QueryParamsError }

/**
 * Runs one client request (`run` parses, applies and returns the builder or its result) and classifies
 * it: the rows, or a well-formed `QueryParamsError`. Any other exception — a database error, a
 * `TypeError` — propagates with `what` in its message, and so does taking longer than `limitMs`
 * (async work is cut off at the limit; synchronous work, such as SQLite's, is measured after the fact).
 *
 * @example
 * const outcome = await outcomeOf(() => applyQueryParams(db('users'), parseQueryParams(q), relationMap), 2000, q)
 */
export async function outcomeOf(run: () => unknown, limitMs: number, what: string): Promise<Outcome> {
  const started = performance.now()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${limitMs} ms`)), limitMs)
  })
  let result: unknown
  try {
    result = await Promise.race([Promise.resolve().then(run), timeout])
  } catch (error) {
    if (error instanceof QueryParamsError) {
      expectWellFormedError(error)
      return { kind: 'rejected', error }
    }
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    throw new Error(`${what} threw something other than a QueryParamsError: ${message}`, { cause: error })
  } finally {
    clearTimeout(timer)
  }
  const elapsed = performance.now() - started
  if (elapsed > limitMs) throw new Error(`hang: ${what} took ${Math.round(elapsed)} ms (limit ${limitMs} ms)`)
  if (!Array.isArray(result)) throw new Error(`${what} resolved to ${typeof result}, not a list of rows`)
  return { kind: 'rows', rows: result as Row[] }
}
