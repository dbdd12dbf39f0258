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
  /** How the library writes a relation filter in a query without a limit: `key in (select …)` or a correlated `exists`. */
  unpagedFilter: 'exists' | 'in'
  /** A page, as the library writes it: bound `limit ?` / `offset ?`, or written into the SQL on SQLite. */
  page(query: Knex.QueryBuilder, limit: number, offset: number): Knex.QueryBuilder
}

const boundPage = (query: Knex.QueryBuilder, limit: number, offset: number): Knex.QueryBuilder =>
  query.limit(limit).offset(offset)
/** `limit 20 offset 20` in the SQL text, as the library writes a page on SQLite (`Dialect.inlinePage`). */
const inlinePage = (query: Knex.QueryBuilder, limit: number, offset: number): Knex.QueryBuilder =>
  query.limit(limit, { skipBinding: true }).offset(offset, { skipBinding: true })

export const handDialects: Record<'sqlite' | 'postgres' | 'mysql', HandDialect> = {
  mysql: {
    like: (query, column, pattern) =>
      query.whereRaw(
        '(?? like convert(? using utf8mb4) collate utf8mb4_general_ci and lower(??) like lower(convert(? using utf8mb4) collate utf8mb4_bin))',
        [column, pattern, column, pattern],
      ),
    boolean: (value) => (value ? 1 : 0),
    datetime: (iso) =>
      new Date(iso)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.000Z$/, '')
        .replace('Z', ''),
    orderBy: (query, column, direction) => query.orderBy(column, direction),
    unpagedFilter: 'in',
    page: boundPage,
  },
  postgres: {
    like: (query, column, pattern) => query.where(column, 'ilike', pattern),
    boolean: (value) => value,
    datetime: (iso) => new Date(iso).toISOString(),
    orderBy: (query, column, direction) => query.orderBy(column, direction, direction === 'asc' ? 'first' : 'last'),
    unpagedFilter: 'exists',
    page: boundPage,
  },
  sqlite: {
    like: (query, column, pattern) => query.whereRaw("?? like ? escape '\\'", [column, pattern]),
    boolean: (value) => (value ? 1 : 0),
    datetime: (iso) =>
      new Date(iso)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.000Z$/, '')
        .replace('Z', ''),
    orderBy: (query, column, direction) => query.orderBy(column, direction),
    unpagedFilter: 'in',
    page: inlinePage,
  },
}
