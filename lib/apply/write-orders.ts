import { loadsOf } from '../map/relation-kinds.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import { aliasFor } from '../sql/alias-scope.ts'
import { keyEquality } from '../sql/key-equality.ts'
import type { OrderJoins } from './order-joins.ts'
import type { SqlWriter } from '../sql/sql-writer.ts'
import { joinAggregate } from './join-aggregate.ts'
import { writeAggregate } from '../sql/write-aggregate.ts'
import { type JoinedSearch, writeRelevance } from '../sql/write-search.ts'

/**
 * Writes the planned orders as the list after `order by`. A column reached through to-one hops is read
 * from the joins of `joins` (`"teams"."name"`); without `joins` (a builder selecting `*`), or through a hasOne
 * whose table has a composite key, it becomes a correlated scalar subquery
 * (`(select teams.name from teams where teams.id = users.team_id)`); neither can multiply rows. An aggregate
 * of the row is read from its grouped join (see `joinAggregate`), or, without `joins`, written as its
 * correlated subquery. NULLs sort as the smallest values on every database; a value that cannot be
 * NULL gets no NULL-ordering clause, so an index can serve the order. With a `fulltext` search joined into the
 * `from` (`search`), the base key and the relevance are read from the joined full-text row, in whose order the
 * database reads (SQLite's FTS5 then stops at the page's limit).
 */
export function writeOrders(
  out: SqlWriter,
  ref: string,
  orders: readonly PlannedOrder[],
  map: RelationMap,
  joins?: OrderJoins,
  search?: JoinedSearch,
): void {
  orders.forEach((order, index) => {
    if (index > 0) out.text(', ')
    if (order.relevance !== undefined && search !== undefined) out.text(search.relevance)
    else if (order.relevance !== undefined) writeRelevance(out, order.relevance, ref)
    else if (search !== undefined && order.via.length === 0 && order.column === search.keyColumn) out.text(search.key)
    else if (order.aggregate !== undefined) {
      if (joins !== undefined) out.text(joinAggregate(joins, order.aggregate, ref, map))
      else writeAggregate(out, order.aggregate, ref, new Set([ref]), map)
    } else if (order.via.length === 0) out.text(out.names.column(ref, order.column))
    else if (joins?.joinable(order.via)) out.text(out.names.column(joins.aliasOf(order.via), order.column))
    else writeRelatedValue(out, ref, order, map)
    out.text(` ${order.direction}`)
    if (out.dialect.nullsSortLargest && order.nullable)
      out.text(order.direction === 'asc' ? ' nulls first' : ' nulls last')
  })
}

function writeRelatedValue(out: SqlWriter, ref: string, order: PlannedOrder, map: RelationMap): void {
  const { names } = out
  const scope = new Set([ref])
  const where = out.fresh()
  let from = ''
  let previous = ref
  let needsLimit = false
  const keys: string[] = []
  order.via.forEach((relation, index) => {
    const alias = aliasFor(relation.table, scope)
    scope.add(alias)
    const linked = keyEquality(names, relation, alias, previous)
    if (index === 0) {
      from = names.table(relation.table, alias)
      where.text(linked)
    } else {
      from += ` inner join ${names.table(relation.table, alias)} on ${linked}`
    }
    if (relation.morph !== undefined)
      where.text(` and ${names.column(alias, relation.morph.column)} = `).bind(relation.morph.value)
    out.guards?.writeAnd(where, relation.table, alias)
    if (loadsOf(relation.type) !== 'one') needsLimit = true
    for (const column of primaryKeyColumns(map, relation.table)) keys.push(`${names.column(alias, column)} asc`)
    previous = alias
  })
  out.text(`(select ${names.column(previous, order.column)} from ${from} where `).append(where)
  if (needsLimit) out.text(` order by ${keys.join(', ')} limit `).bind(1)
  out.text(')')
}
