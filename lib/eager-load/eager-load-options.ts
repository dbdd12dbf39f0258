import type { RowGuards } from '../apply/row-guards.ts'

/** Options of `loadWithTree`. */
export interface EagerLoadOptions {
  /** Most key values in one `IN (…)` list; default the dialect's `maxInBindings`. */
  chunkSize?: number
  /** The row guards each loaded table must meet (see {@link RowGuards}). */
  guards?: RowGuards
}
