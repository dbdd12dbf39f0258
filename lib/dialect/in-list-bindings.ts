/**
 * How many values one `IN (…)` list binds at most (an eager-loading chunk of keys), on every database: safely below
 * the lowest bind-parameter limit of the drivers the library writes SQL for (SQLite's 32,766 by default since 3.32;
 * PostgreSQL's and MySQL's protocols allow 65,535). It was a member of each dialect, set to the same value by all
 * three; a database that needs less would make it one again.
 */
export const MAX_IN_BINDINGS = 30_000
