/** One database row as the driver returns it, and as eager-loading mutates it. */
export type Row = Record<string, unknown>
