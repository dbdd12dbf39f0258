import type { Knex } from 'knex'
import type { SeekOrder } from '../apply/seek-orders.ts'
import type { CursorSql } from '../dialect/cursor-sql.ts'
import type { Dialect } from '../dialect/dialect.ts'
import type { CursorDirection } from './cursor-token.ts'

/** SQL text with its bindings, in order. */
export interface Fragment {
  sql: string
  bindings: Knex.Value[]
}

class Out implements Fragment {
  sql = ''
  bindings: Knex.Value[] = []
  text(sql: string): this {
    this.sql += sql
    return this
  }
  value(order: SeekOrder): this {
    this.sql += order.sql
    this.bindings.push(...order.bindings)
    return this
  }
  also(bindings: readonly Knex.Value[]): this {
    this.bindings.push(...bindings)
    return this
  }
  bind(value: Knex.Value, placeholder: string): this {
    this.sql += placeholder
    this.bindings.push(value)
    return this
  }
}

/** The qualifier of a column's SQL (`"users"` of `"users"."name"`), or the whole text of any other value. */
const tableOf = (sql: string): string => /^([`"][^`"]+[`"])\.[`"][^`"]+[`"]$/.exec(sql)?.[1] ?? sql

const flip = (direction: 'asc' | 'desc'): 'asc' | 'desc' => (direction === 'asc' ? 'desc' : 'asc')

/** The orders as the page reads them: as given for `next`, every direction reversed for `prev`. */
export function pageOrders(orders: readonly SeekOrder[], direction: CursorDirection): SeekOrder[] {
  return orders.map((order) => (direction === 'next' ? order : { ...order, direction: flip(order.direction) }))
}

/**
 * The `order by` list of `orders` (see {@link pageOrders}), NULLs the smallest values as in every order of the
 * library: `"posts"."created_at" desc, "posts"."id" desc`.
 */
export function orderList(orders: readonly SeekOrder[], dialect: Dialect): Fragment {
  const out = new Out()
  orders.forEach((order, index) => {
    out
      .text(index === 0 ? '' : ', ')
      .value(order)
      .text(` ${order.direction}`)
    if (dialect.nullsSortLargest && order.nullable) out.text(order.direction === 'asc' ? ' nulls first' : ' nulls last')
  })
  return out
}

/**
 * The rows strictly after the position `values` (`null` for NULL, else bound as `sql.binding` makes it) in the
 * order of `orders`, as one or two conditions whose rows follow each other in that order: the page reads the
 * first, and the second only when the first has fewer rows than the page. Where it is exact (one direction, no
 * value that can be NULL) a row-value comparison the index reads as a range: `("posts"."created_at",
 * "posts"."id") < (?, ?)`. Elsewhere the expanded form, led by a bound on the first value where one holds (`a >= ?
 * and (a > ? or a = ? and b > ?)`), so that the index of the first order is entered at the position rather than
 * walked from its start. When the first order can be NULL and the rows after the position are both NULL and not
 * (descending from a value, or ascending from NULL), each part is a range of its own: `a <= ? and (a < ? or a = ?
 * and b < ?)`, then `a is null`; one condition with `or a is null` would be read from the index's start.
 */
export function seekConditions(
  orders: readonly SeekOrder[],
  values: readonly (string | null)[],
  sql: CursorSql,
): Fragment[] {
  const [first] = orders
  const value = values[0] ?? null
  if (first === undefined || !first.nullable || orders.length < 2) return [seekCondition(orders, values, sql)]
  if (first.direction === 'desc' && value !== null) {
    return [
      seekCondition([{ ...first, nullable: false }, ...orders.slice(1)], values, sql),
      new Out().value(first).text(' is null'),
    ]
  }
  if (first.direction === 'asc' && value === null) {
    const nulls = new Out().value(first).text(' is null and ')
    const rest = seekCondition(orders.slice(1), values.slice(1), sql)
    return [nulls.text('(').text(rest.sql).text(')').also(rest.bindings), new Out().value(first).text(' is not null')]
  }
  return [seekCondition(orders, values, sql)]
}

/** {@link seekConditions} as one condition. */
export function seekCondition(
  orders: readonly SeekOrder[],
  values: readonly (string | null)[],
  sql: CursorSql,
): Fragment {
  const out = new Out()
  const bound = (order: SeekOrder, text: string): void => {
    out.bind(sql.binding(text, order.type), sql.bind(order.type))
  }
  const [first] = orders
  const direction = first?.direction
  const exact =
    orders.length > 1 &&
    sql.rowValues &&
    orders.every((order, index) => order.direction === direction && !order.nullable && values[index] !== null)
  if (exact && first !== undefined) {
    // Across tables (a joined column, then the key) no index holds the row value: lead with the first value's bound.
    if (tableOf(first.sql) !== tableOf(orders.at(-1)?.sql ?? '')) {
      out.value(first).text(first.direction === 'asc' ? ' >= ' : ' <= ')
      bound(first, values[0] ?? '')
      out.text(' and ')
    }
    out.text('(')
    orders.forEach((order, index) => out.text(index === 0 ? '' : ', ').value(order))
    out.text(`) ${first.direction === 'asc' ? '>' : '<'} (`)
    orders.forEach((order, index) => {
      out.text(index === 0 ? '' : ', ')
      bound(order, values[index] ?? '')
    })
    return out.text(')')
  }
  const firstValue = values[0]
  if (
    first !== undefined &&
    firstValue !== null &&
    firstValue !== undefined &&
    orders.length > 1 &&
    (first.direction === 'asc' || !first.nullable)
  ) {
    out.value(first).text(first.direction === 'asc' ? ' >= ' : ' <= ')
    bound(first, firstValue)
    out.text(' and ')
  }
  const after = (index: number): void => {
    const order = orders[index]
    if (order === undefined) return
    const value = values[index] ?? null
    const last = index === orders.length - 1
    const strict = (): boolean => {
      if (value === null) {
        if (order.direction === 'desc') return false
        out.value(order).text(' is not null')
        return true
      }
      const nullsAfter = order.direction === 'desc' && order.nullable
      out
        .text(nullsAfter ? '(' : '')
        .value(order)
        .text(order.direction === 'asc' ? ' > ' : ' < ')
      bound(order, value)
      if (nullsAfter) out.text(' or ').value(order).text(' is null)')
      return true
    }
    if (last) {
      if (!strict()) out.text('1 = 0')
      return
    }
    out.text('(')
    if (strict()) out.text(' or ')
    out.value(order)
    if (value === null) out.text(' is null')
    else {
      out.text(' = ')
      bound(order, value)
    }
    out.text(' and ')
    after(index + 1)
    out.text(')')
  }
  after(0)
  return out
}
