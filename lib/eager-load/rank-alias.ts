/** Alias of the row number a top-N eager-load query ranks each parent's related rows by; stripped before rows are returned. */
export const RANK_ALIAS = '__kqp_rank'
