import type { RowGuards } from '../apply/row-guards.ts'
import type { Row } from './row.ts'

/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default the dialect's `maxInBindings`. */
  chunkSize?: number
  /** The row guards each loaded table must meet (see {@link RowGuards}). */
  guards?: RowGuards
  /** Rewrites each loaded batch of rows of a table into JSON values, once nested loading is done (see `rowNormalizer`). */
  normalize?: (table: string, rows: Row[]) => void
}
