import type { Knex } from 'knex'
import type { BoundOptions } from './bound-options.ts'
import type { StatementBound } from './statement-bound.ts'

/**
 * How a builder from `applyQueryParams` runs under a bound that a caller (`paginate`) shares across statements
 * (carried in the builder's read state: see `ReadState.run`).
 */
export interface BoundedRun {
  /** The `timeout` and `signal` given to `applyQueryParams`. */
  readonly options: BoundOptions
  /** Runs `builder` (this builder or a copy made by `cloneWithEagerLoading`) with its eager loading, within `bound`. */
  run(builder: Knex.QueryBuilder, bound: StatementBound | undefined): Promise<unknown>
}
