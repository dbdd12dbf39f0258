import type { RelationMap } from '../relation-map.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import { primaryKeyOf } from '../validate/resolve-relation.ts'
import { aliasFor } from './alias-scope.ts'
import type { SqlWriter } from './sql-writer.ts'

/**
 * Writes the planned orders as the list after `order by`. A related column becomes a correlated scalar
 * subquery (`(select teams.name from teams where teams.id = users.team_id)`), which cannot multiply
 * rows. NULLs sort as the smallest values on every database; the primary key needs no NULL handling.
 */
export function writeOrders(out: SqlWriter, ref: string, table: string, orders: readonly PlannedOrder[], map: RelationMap): void {
  const key = primaryKeyOf(map, table)
  orders.forEach((order, index) => {
    if (index > 0) out.text(', ')
    const isKey = order.via.length === 0 && order.column === key
    if (order.via.length === 0) out.text(out.names.column(ref, order.column))
    else writeRelatedValue(out, ref, order, map)
    out.text(` ${order.direction}`)
    if (out.dialect.nullsSortLargest && !isKey) out.text(order.direction === 'asc' ? ' nulls first' : ' nulls last')
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
    const related = names.column(alias, relation.relatedKey)
    const parent = names.column(previous, relation.parentKey)
    if (index === 0) {
      from = names.table(relation.table, alias)
      where.text(`${related} = ${parent}`)
    } else {
      from += ` inner join ${names.table(relation.table, alias)} on ${related} = ${parent}`
    }
    if (relation.morph !== undefined) where.text(` and ${names.column(alias, relation.morph.column)} = `).bind(relation.morph.value)
    out.guards?.writeAnd(where, relation.table, alias)
    if (relation.type !== 'belongsTo') needsLimit = true
    keys.push(`${names.column(alias, primaryKeyOf(map, relation.table))} asc`)
    previous = alias
  })
  out.text(`(select ${names.column(previous, order.column)} from ${from} where `).append(where)
  if (needsLimit) out.text(` order by ${keys.join(', ')} limit `).bind(1)
  out.text(')')
}
