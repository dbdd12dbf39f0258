/** Alias under which a `belongsToMany` query returns the pivot's parent column; stripped before rows are returned. */
export const PIVOT_ALIAS = '__kqp_pivot_parent_key'

/**
 * Alias of the row number a top-N eager-load query ranks each parent's related rows by; stripped before rows are
 * returned.
 */
export const RANK_ALIAS = '__kqp_rank'
