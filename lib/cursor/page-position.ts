import type { Knex } from 'knex'
import type { SeekOrder } from '../apply/seek-orders.ts'
import { cursorSqlOf } from '../dialect/cursor-sql.ts'
import type { Dialect } from '../dialect/dialect.ts'
import type { Identifiers } from '../sql/identifiers.ts'

/** The name of the `index`-th position column a keyset page selects beside the row (and removes from it). */
export const positionColumn = (index: number): string => `kqp_cursor_${index}`

/** The select entry reading each order's value of the row exactly, as `kqp_cursor_<i>` (see `CursorSql.read`). */
export function positionSelect(
  client: Knex.Client,
  names: Identifiers,
  orders: readonly SeekOrder[],
  dialect: Dialect,
): Knex.Raw {
  const { read } = cursorSqlOf(dialect)
  const parts: string[] = []
  const bindings: Knex.Value[] = []
  orders.forEach((order, index) => {
    const pieces = read(order.type).split('$')
    for (let piece = 1; piece < pieces.length; piece++) bindings.push(...order.bindings)
    parts.push(names.aliased(pieces.join(order.sql), positionColumn(index)))
  })
  return client.raw(parts.join(', '), bindings)
}

/** The position values of `row` (removing them from it): the text of each order's value, `null` for NULL. */
export function takePosition(
  row: Record<string, unknown>,
  orders: readonly SeekOrder[],
  dialect: Dialect,
): (string | null)[] {
  const { text } = cursorSqlOf(dialect)
  return orders.map((order, index) => {
    const name = positionColumn(index)
    const value = row[name]
    delete row[name]
    return value === null || value === undefined ? null : text(value, order.type)
  })
}
