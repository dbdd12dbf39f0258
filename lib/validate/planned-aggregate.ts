import type { ColumnType } from '../relation-map.ts'
import type { DirectRelation } from './resolved-relation.ts'

/** What an aggregate computes over the related rows: a declared function, or `exists`. */
export type AggregateKind = 'count' | 'exists' | 'sum' | 'avg' | 'min' | 'max'

/**
 * One aggregate of a row over a relation's related rows, validated: a `<relation>Count`, a `<relation>Exists`
 * or a declared aggregate. `key` is the property it is returned under (`posts_count`).
 */
export interface PlannedAggregate {
  /** The name as the map allows it: `postsCount`, `postsExists`, or the declared name. */
  name: string
  key: string
  kind: AggregateKind
  relation: DirectRelation
  /** The related table's database column aggregated; absent for `count(*)` and `exists`. */
  column?: string
  /** The name of a scope of the related table restricting the rows aggregated. */
  scope?: string
  /** The type of the value: `integer` for a count, `boolean` for exists, `number` for avg, the column's for the others. */
  type: ColumnType
  /** Whether the value can be NULL: a sum, avg, min or max over no rows. */
  nullable: boolean
}
