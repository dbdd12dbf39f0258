import type { RelationMap } from '../relation-map.ts'
import { didYouMean, relationMapError } from './relation-map-error.ts'

/**
 * Checks that the `orders` of every to-many relation name columns of the related table's allow-list (their
 * client names), once every table is known valid.
 *
 * @throws {Error} naming the order to fix, e.g. `users.relations.posts.orders[0].column: …`.
 */
export function checkRelationOrders(map: RelationMap): void {
  for (const [table, definition] of Object.entries(map)) {
    for (const [name, relation] of Object.entries(definition.relations ?? {})) {
      if (relation.type === 'morphTo' || relation.type === 'belongsTo' || relation.orders === undefined) continue
      const columns = Object.keys(map[relation.table]?.columns ?? {})
      relation.orders.forEach((order, index) => {
        if (columns.includes(order.column)) return
        throw relationMapError(
          `${table}.relations.${name}.orders[${index}].column`,
          `'${order.column}' is not a column of ${relation.table}${didYouMean(order.column, columns)}; orders name columns of the related table's allow-list`,
        )
      })
    }
  }
}
