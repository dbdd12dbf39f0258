import type { Knex } from 'knex'
import type { Dialect } from '../dialect/dialect.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import { primaryKeyOf } from '../validate/resolve-relation.ts'
import { aliasFor, fromClause } from './alias-scope.ts'

/**
 * Adds the planned orders. A related column becomes a correlated scalar subquery
 * (`ORDER BY (SELECT teams.name FROM teams WHERE teams.id = users.team_id)`), which cannot multiply
 * rows. NULLs sort as the smallest values on every database; the primary key needs no NULL handling.
 */
export function applyOrders(builder: Knex.QueryBuilder, ref: string, table: string, orders: readonly PlannedOrder[], map: RelationMap, dialect: Dialect): void {
  for (const order of orders) {
    const column = order.via.length === 0 ? `${ref}.${order.column}` : relatedValue(builder, ref, order, map)
    const isKey = order.via.length === 0 && order.column === primaryKeyOf(map, table)
    if (dialect.nullsSortLargest && !isKey) builder.orderBy(column, order.direction, order.direction === 'asc' ? 'first' : 'last')
    else builder.orderBy(column, order.direction)
  }
}

function relatedValue(builder: Knex.QueryBuilder, ref: string, order: PlannedOrder, map: RelationMap): Knex.QueryBuilder {
  const subquery = builder.client.queryBuilder()
  const scope = new Set([ref])
  let previous = ref
  let needsLimit = false
  const keys: string[] = []
  order.via.forEach((relation, index) => {
    const alias = aliasFor(relation.table, scope)
    scope.add(alias)
    if (index === 0) {
      subquery.from(fromClause(relation.table, alias)).whereRaw('?? = ??', [`${alias}.${relation.relatedKey}`, `${previous}.${relation.parentKey}`])
    } else {
      subquery.innerJoin(fromClause(relation.table, alias), `${alias}.${relation.relatedKey}`, `${previous}.${relation.parentKey}`)
    }
    if (relation.morph !== undefined) subquery.where(`${alias}.${relation.morph.column}`, relation.morph.value)
    if (relation.type !== 'belongsTo') needsLimit = true
    keys.push(`${alias}.${primaryKeyOf(map, relation.table)}`)
    previous = alias
  })
  subquery.select(`${previous}.${order.column}`)
  if (needsLimit) subquery.orderBy(keys.map((column) => ({ column, order: 'asc' }))).limit(1)
  return subquery
}
