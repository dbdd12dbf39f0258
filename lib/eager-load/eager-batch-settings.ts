import type { StatementBound } from '../bound/statement-bound.ts'
import type { RowGuards } from '../apply/row-guards.ts'
import type { RowBudget } from './row-budget.ts'
import type { TopPerParentForm } from './top-per-parent.ts'

/** What every eager-load query of one request shares: its chunk size, guards, row budget, and the dialect's NULL ordering and top-N form. */
export interface EagerBatchSettings {
  /** Most key values in one `IN (…)` list. */
  chunkSize: number
  guards?: RowGuards
  /** The rows the request may still load (`maxEagerRows`). */
  budget: RowBudget
  /** The dialect's `nullsSortLargest`: whether a top-N order needs `nulls first/last`. */
  nullsSortLargest: boolean
  /** The dialect's `topPerParent`: how a top-N query is written. */
  topForm: TopPerParentForm
  /** The request's time and signal; every batch runs within it (see `runBounded`). */
  bound?: StatementBound
  /** Whether the rows are normalized afterwards, so their statements may ask the driver for JSON-ready values (see `jsonReadOptions`). */
  json?: boolean
}
