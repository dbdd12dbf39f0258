import type { RowGuards } from '../apply/row-guards.ts'
import type { StatementBound } from '../bound/statement-bound.ts'

/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default the dialect's `maxInBindings`. */
  chunkSize?: number
  /** The row guards each loaded table must meet (see {@link RowGuards}). */
  guards?: RowGuards
  /** The request's time and signal; every batch runs within it (see `runBounded`). */
  bound?: StatementBound
}
