import type { Knex } from 'knex'

/**
 * What someone writing the query by hand for one database writes differently: the same SQL the
 * library generates (case-insensitive `like`, boolean and datetime bindings, NULLs sorting first).
 */
export interface HandDialect {
  like(query: Knex.QueryBuilder, column: string, pattern: string): Knex.QueryBuilder
  boolean(value: boolean): boolean | number
  /** An ISO 8601 UTC instant as the database compares it. */
  datetime(iso: string): string
  orderBy(query: Knex.QueryBuilder, column: string, direction: 'asc' | 'desc'): Knex.QueryBuilder
}

export const handDialects: Record<'sqlite' | 'postgres' | 'mysql', HandDialect> = {
  mysql: {
    like: (query, column, pattern) => query.whereRaw('lower(??) like lower(convert(? using utf8mb4) collate utf8mb4_bin)', [column, pattern]),
    boolean: (value) => (value ? 1 : 0),
    datetime: (iso) => new Date(iso).toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace('Z', ''),
    orderBy: (query, column, direction) => query.orderBy(column, direction),
  },
  postgres: {
    like: (query, column, pattern) => query.where(column, 'ilike', pattern),
    boolean: (value) => value,
    datetime: (iso) => new Date(iso).toISOString(),
    orderBy: (query, column, direction) => query.orderBy(column, direction, direction === 'asc' ? 'first' : 'last'),
  },
  sqlite: {
    like: (query, column, pattern) => query.whereRaw("?? like ? escape '\\'", [column, pattern]),
    boolean: (value) => (value ? 1 : 0),
    datetime: (iso) => new Date(iso).toISOString().replace('T', ' ').replace(/\.000Z$/, '').replace('Z', ''),
    orderBy: (query, column, direction) => query.orderBy(column, direction),
  },
}
