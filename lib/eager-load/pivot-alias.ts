/** Alias under which a `belongsToMany` query returns the pivot's parent column; stripped before rows are returned. */
export const PIVOT_ALIAS = '__kqp_pivot_parent_key'
