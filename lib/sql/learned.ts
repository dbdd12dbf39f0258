import type { Fragment } from './fragment.ts'

/**
 * What writing conditions learned, returned by the writer (see `writeCondition`): what the read plan could not
 * know before the SQL was written.
 */
export interface Learned {
  /**
   * The related rows of each key a relation filter written key first reads (`select 1 from post_tag where tag_id =
   * (select …)`, with the caller's guards), in the order written, where the style tells key lists
   * (`ConditionStyle.keyLists`).
   */
  readonly keyLists: readonly Fragment[]
  /**
   * Whether a filter through a pivot on the base table was written key first while the page is ordered by the key
   * the pivot references: the pivot's `(related, parent)` index then yields the page in order for any key.
   */
  readonly served: boolean
  /** Whether a fence of `ConditionStyle.fencedBase` was written. */
  readonly fenced: boolean
}

/** Nothing learned. */
export const NOTHING_LEARNED: Learned = Object.freeze({ keyLists: Object.freeze([]), served: false, fenced: false })

/** What `first` and then `then` learned. */
export function learnedBoth(first: Learned, then: Learned): Learned {
  if (then === NOTHING_LEARNED) return first
  if (first === NOTHING_LEARNED) return then
  return Object.freeze({
    keyLists: Object.freeze([...first.keyLists, ...then.keyLists]),
    served: first.served || then.served,
    fenced: first.fenced || then.fenced,
  })
}
