import type { Knex } from 'knex'
import type { SeekOrder } from '../apply/seek-orders.ts'
import { cursorSqlOf } from '../dialect/cursor-sql.ts'
import type { Dialect } from '../dialect/dialect.ts'
import type { Identifiers } from '../sql/identifiers.ts'

/** The name of the `index`-th position column a keyset page selects beside the row (and removes from it). */
export const positionColumn = (index: number): string => `kqp_cursor_${index}`

/**
 * Where a keyset page reads each order's position value: `fromRow` the orders (by index) whose value the row
 * already has, under the key given, exactly as the driver returned it (see `CursorSql.fromRow`); `selected` the
 * others, selected beside the row as `kqp_cursor_<i>`.
 */
export interface PositionSources {
  readonly selected: readonly number[]
  readonly fromRow: ReadonlyArray<{ readonly index: number; readonly key: string; readonly type: SeekOrder['type'] }>
}

/**
 * The {@link PositionSources} of `orders`: an order that is a column of the base table the rows carry (`listed`,
 * their keys) is read from the row where the driver returns its exact value; any other is selected.
 */
export function positionSources(
  orders: readonly SeekOrder[],
  listed: ReadonlySet<string>,
  dialect: Dialect,
): PositionSources {
  const { fromRow } = cursorSqlOf(dialect)
  const selected: number[] = []
  const fromRowList: Array<PositionSources['fromRow'][number]> = []
  orders.forEach((order, index) => {
    if (order.column !== undefined && listed.has(order.column) && fromRow(order.type) !== undefined)
      fromRowList.push({ index, key: order.column, type: order.type })
    else selected.push(index)
  })
  return { selected, fromRow: fromRowList }
}

/**
 * The select entry reading the value of each order of `indexes` exactly, as `kqp_cursor_<i>` (see `CursorSql.read`);
 * `undefined` when there is none to select.
 */
export function positionSelect(
  client: Knex.Client,
  names: Identifiers,
  orders: readonly SeekOrder[],
  dialect: Dialect,
  indexes: readonly number[] = orders.map((_order, index) => index),
): Knex.Raw | undefined {
  if (indexes.length === 0) return undefined
  const { read } = cursorSqlOf(dialect)
  const parts: string[] = []
  const bindings: Knex.Value[] = []
  for (const index of indexes) {
    const order = orders[index] as SeekOrder
    const pieces = read(order.type).split('$')
    for (let piece = 1; piece < pieces.length; piece++) bindings.push(...order.bindings)
    parts.push(names.aliased(pieces.join(order.sql), positionColumn(index)))
  }
  return client.raw(parts.join(', '), bindings)
}

/**
 * Copies into each row, as `kqp_cursor_<i>`, the position values `sources` reads from the row itself: run on the
 * rows as the driver returned them, before the library converts any value (a date-time's stored text, not its ISO
 * form). A value the driver returned in another form than the one `CursorSql.fromRow` expects (a type parser of the
 * application's) is an `Error` naming the column: the position would not be exact.
 */
export function copyPositions(
  rows: readonly Record<string, unknown>[],
  sources: PositionSources,
  dialect: Dialect,
): void {
  if (sources.fromRow.length === 0) return
  const { fromRow } = cursorSqlOf(dialect)
  const checks = sources.fromRow.map(({ type }) => fromRow(type) ?? (() => false))
  for (const row of rows) {
    sources.fromRow.forEach(({ index, key }, at) => {
      const value = row[key]
      if (value !== null && value !== undefined && !(checks[at] as (value: unknown) => boolean)(value))
        throw new Error(
          `knex-query-params: cursorPaginate cannot read the position of '${key}' from the row: the driver ` +
            `returned ${typeof value === 'object' ? (value.constructor?.name ?? 'an object') : `a ${typeof value}`}, ` +
            `not the exact value of a ${sources.fromRow[at]?.type} column (a type parser of the driver?)`,
        )
      row[positionColumn(index)] = value
    })
  }
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
