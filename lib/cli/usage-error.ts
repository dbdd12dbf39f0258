/** A mistake in how the CLI was called (arguments, map file, database URL): printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }
}
