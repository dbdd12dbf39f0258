import type { WhereDescription } from '../query-params.ts'
import type { RelationMap } from '../relation-map.ts'
import { aggregateColumn } from './aggregates-of.ts'
import { buildTest, type WhereParams } from './build-column-predicate.ts'
import type { Condition } from './query-plan.ts'
import type { PlannedOrder } from './resolve-order.ts'

/**
 * A `wheres` entry on an aggregate of the base row (`postsCount`, `posts_exists`, a declared one) as an
 * `aggregate` condition, its value coerced to the aggregate's type; `undefined` when the column names none
 * (a column of the table, a relation path, or nothing known).
 */
export function resolveAggregateWhere(
  map: RelationMap,
  table: string,
  where: WhereDescription,
  params: WhereParams,
): Condition | undefined {
  const aggregate = aggregateColumn(map, table, where.column)
  if (aggregate === undefined) return undefined
  return { kind: 'aggregate', aggregate, test: buildTest(where, aggregate.type, params) }
}

/** An `orders` entry on an aggregate of the base row, or `undefined` when the column names none. */
export function resolveAggregateOrder(
  map: RelationMap,
  table: string,
  name: string,
  direction: 'asc' | 'desc',
): PlannedOrder | undefined {
  const aggregate = aggregateColumn(map, table, name)
  if (aggregate === undefined) return undefined
  return { aggregate, via: [], column: '', direction, nullable: aggregate.nullable, total: false }
}
