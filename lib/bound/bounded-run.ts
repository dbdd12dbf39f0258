import type { Knex } from 'knex'
import type { BoundOptions } from './bound-options.ts'
import type { StatementBound } from './statement-bound.ts'

/** How a builder from `applyQueryParams` runs under a bound that a caller (`paginate`) shares across statements. */
export interface BoundedRun {
  /** The `timeout` and `signal` given to `applyQueryParams`. */
  readonly options: BoundOptions
  /** Runs `builder` (this builder or a copy made by `cloneWithEagerLoading`) with its eager loading, within `bound`. */
  run(builder: Knex.QueryBuilder, bound: StatementBound | undefined): Promise<unknown>
}

/** The own property under which a builder carries its {@link BoundedRun}. */
export const BOUNDED_RUN = Symbol('knex-query-params.boundedRun')

/** The {@link BoundedRun} a builder carries, if `applyQueryParams` made it. */
export function boundedRunOf(builder: Knex.QueryBuilder): BoundedRun | undefined {
  const own = Object.getOwnPropertyDescriptor(builder, BOUNDED_RUN)?.value as BoundedRun | undefined
  return own
}
