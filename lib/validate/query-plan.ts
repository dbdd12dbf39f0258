import type { Scope } from '../relation-map.ts'
import type { Condition } from './condition.ts'
import type { PlannedAggregate } from './planned-aggregate.ts'
import type { PlannedOrder } from './resolve-order.ts'
import type { WithNode } from './with-tree.ts'

/** Client params validated against the relation map: everything `apply` needs, nothing it must check again. */
export interface QueryPlan {
  table: string
  wheres: Array<{ boolean: 'and' | 'or'; condition: Condition }>
  exists: Condition[]
  scopes: Scope[]
  columns?: string[]
  distinct?: string[]
  orders: PlannedOrder[]
  limit?: number
  offset?: number
  with: WithNode[]
  /** Aggregates of the base row asked for in `with` (`postsCount`), added to the select list. */
  aggregates: PlannedAggregate[]
}
