import type { Knex } from 'knex'
import { attach, attachedTo } from '../knex/builder-methods.ts'
import type { BoundOptions } from './bound-options.ts'
import type { StatementBound } from './statement-bound.ts'

/** How a builder from `applyQueryParams` runs under a bound that a caller (`paginate`) shares across statements. */
export interface BoundedRun {
  /** The `timeout` and `signal` given to `applyQueryParams`. */
  readonly options: BoundOptions
  /** Runs `builder` (this builder or a copy made by `cloneWithEagerLoading`) with its eager loading, within `bound`. */
  run(builder: Knex.QueryBuilder, bound: StatementBound | undefined): Promise<unknown>
}

/** The key under which a builder carries its {@link BoundedRun} (no clone copies it). */
const BOUNDED_RUN = Symbol('knex-query-params.boundedRun')

/** The {@link BoundedRun} a builder carries, if `applyQueryParams` made it (or it was carried over to it). */
export function boundedRunOf(builder: Knex.QueryBuilder): BoundedRun | undefined {
  return attachedTo(builder, BOUNDED_RUN) as BoundedRun | undefined
}

/** Makes `builder` carry `run` (nothing when `undefined`). */
export function carryBoundedRun(builder: Knex.QueryBuilder, run: BoundedRun | undefined): void {
  if (run !== undefined) attach(builder, BOUNDED_RUN, run)
}
