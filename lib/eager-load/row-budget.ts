import { QueryParamsError } from '../errors/query-params-error.ts'

/**
 * The rows one request's eager loading may still load, over every relation and level (`maxEagerRows`).
 * Each eager-load query asks for at most {@link remaining} + 1 rows, so a request past the budget is found
 * after loading at most one row more than the budget, whatever the data.
 */
export class RowBudget {
  /** The budget: `maxEagerRows`. */
  readonly max: number
  #remaining: number

  constructor(max: number) {
    if (!Number.isSafeInteger(max) || max < 0)
      throw new Error(`knex-query-params: maxEagerRows must be a non-negative integer, got ${String(max)}`)
    this.max = max
    this.#remaining = max
  }

  /** Rows that may still be loaded. */
  get remaining(): number {
    return this.#remaining
  }

  /**
   * Counts `rows` loaded for the `with` entry `param` (`with[0]`).
   *
   * @throws {QueryParamsError} `limit_exceeded` when they are more than what is left.
   */
  spend(rows: number, param: string): void {
    if (rows > this.#remaining) {
      throw new QueryParamsError(
        `Parameter '${param}' loads more than ${this.max} related rows in total, the most one request may ` +
          `eager-load; ask for fewer rows or relations (the server's maxEagerRows option sets this budget).`,
        { code: 'limit_exceeded', param },
      )
    }
    this.#remaining -= rows
  }
}
