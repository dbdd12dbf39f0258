import type { RowGuards } from '../guard/row-guards.ts'
import type { Row } from './row.ts'
import type { RowBudget } from './row-budget.ts'
import type { StatementBound } from '../bound/statement-bound.ts'

/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default the dialect's `maxInBindings`. */
  chunkSize?: number
  /** The row guards each loaded table must meet (see {@link RowGuards}). */
  guards?: RowGuards
  /** Rewrites each loaded batch of rows of a table into JSON values, once nested loading is done (see `rowNormalizer`). */
  normalize?: (table: string, rows: Row[]) => void
  /**
   * The rows the whole tree may load, over every relation and level; shared by the nested calls.
   * Default a budget of `maxEagerRows` (10,000) of its own.
   */
  budget?: RowBudget
  /** The request's time and signal; every batch runs within it (see `runBounded`). */
  bound?: StatementBound
}
