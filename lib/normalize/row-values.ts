/** One database row as the driver returns it, and as eager-loading and normalizing mutate it. */
export type Row = Record<string, unknown>

/**
 * What rows carry: `'json'` (default) turns every allow-listed column into the JSON value of its declared type,
 * the same on every database and in every time zone; `'driver'` leaves the values as the database driver
 * returns them (`Date`s, `0`/`1`, numeric text…), for a caller that converts rows itself.
 */
export type RowValues = 'json' | 'driver'
