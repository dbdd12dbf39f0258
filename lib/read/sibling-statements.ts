import { StatementBound } from '../bound/statement-bound.ts'

/**
 * Runs statements side by side within `bound`, so that the first failure stops the others: they share a bound
 * that also aborts, with that first error, when one of them fails, which cancels a sibling still running on the
 * server at once (as a timeout would). Rejects with the first error; resolves with every result otherwise.
 */
export async function siblingStatements<T extends readonly unknown[]>(
  bound: StatementBound | undefined,
  start: (shared: StatementBound) => { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const failed = new AbortController()
  const shared = StatementBound.joined(bound, failed.signal)
  const running = start(shared).map((statement: Promise<unknown>) =>
    statement.catch((error: unknown) => {
      if (!failed.signal.aborted) failed.abort(error)
      throw error
    }),
  )
  return (await Promise.all(running)) as unknown as T
}
