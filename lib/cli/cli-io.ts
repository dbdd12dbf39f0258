/** Where the CLI writes: `out` for results (stdout), `err` for problems (stderr). Each call is one line or more. */
export interface CliIo {
  out(text: string): void
  err(text: string): void
}

/** A mistake in how the CLI was called (arguments, map file, database URL): printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}

/**
 * What went wrong, as one line for stderr: the error's message with its lines joined (a driver's
 * `AggregateError` gives its errors' messages; an empty message gives the error's `code`), without any
 * `Require stack:` list or stack trace.
 *
 * @example
 * oneLine(new AggregateError([new Error('connect ECONNREFUSED ::1:1'), new Error('connect ECONNREFUSED 127.0.0.1:1')]))
 * // 'connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1'
 */
export function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error).replace(/\s*\n\s*/g, ' ')
  const inner = error instanceof AggregateError ? error.errors.map(oneLine).filter((text) => text !== '') : []
  const message = error.message.split(/\nRequire stack:/)[0]?.trim() ?? ''
  const text =
    message !== ''
      ? message
      : inner.length > 0
        ? inner.join('; ')
        : String((error as { code?: unknown }).code ?? error.name)
  return text.replace(/\s*\n\s*/g, ' ')
}
