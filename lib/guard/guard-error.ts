/**
 * A table's row guard threw (or added something other than where conditions): a bug in the server's code
 * or a missing `context`, never a client 400. The message names the guard: `products.guard: …`.
 */
export class GuardError extends Error {
  /** The table whose guard failed. */
  readonly table: string

  constructor(table: string, error: unknown) {
    super(`knex-query-params: ${table}.guard: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    })
    this.name = 'GuardError'
    this.table = table
  }
}
