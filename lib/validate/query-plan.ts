import type { ColumnType, Scope } from '../relation-map.ts'
import type { DirectRelation, MorphTarget, MorphToResolved, ResolvedRelation } from './resolved-relation.ts'
import type { ExactNumber, UtcInstant } from '../values.ts'
import type { PlannedOrder } from './resolve-order.ts'
import type { PlannedFulltext, PlannedSearch } from './planned-search.ts'
import type { TextColumnKind } from './text-column.ts'

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
  /**
   * The type of the value: `integer` for a count, `boolean` for exists, `number` for avg, the column's for the others.
   */
  type: ColumnType
  /** Whether the value can be NULL: a sum, avg, min or max over no rows. */
  nullable: boolean
  /** A min or max of a SQLite date-time stored as epoch seconds (`storage: 'epoch_s'`): the value is seconds. */
  epochSeconds?: true
}

/** A client value after coercion to its column's type, before the dialect binds it. */
export type CoercedValue = string | number | boolean | UtcInstant | ExactNumber

/** What a condition checks on one column. */
export type Test =
  | { op: 'null'; negate: boolean }
  | { op: 'compare'; operator: '=' | '!=' | '<' | '<=' | '>' | '>='; value: CoercedValue }
  | { op: 'like'; pattern: string }
  | { op: 'in'; negate: boolean; values: CoercedValue[]; withNull: boolean }
  | { op: 'between'; negate: boolean; low: CoercedValue; high: CoercedValue }

/**
 * A validated condition, ready to apply: a test on a column of the current table, or the existence
 * of related rows (optionally satisfying an inner condition). `morphTo` branches into one existence
 * check per target table. An `aggregate` condition tests an aggregate of the base row (`postsCount >= 5`). A
 * `fulltext` condition asks the current table's full-text index for every term (a `fulltext` search through a
 * relation, inside its existence check).
 */
export type Condition =
  | { kind: 'test'; table: string; column: string; test: Test; text?: TextColumnKind }
  | { kind: 'exists'; relation: DirectRelation; inner: Condition | null }
  | {
      kind: 'morphExists'
      relation: MorphToResolved
      branches: Array<{ target: MorphTarget; inner: Condition | null }>
    }
  | { kind: 'aggregate'; aggregate: PlannedAggregate; test: Test }
  | { kind: 'fulltext'; fulltext: PlannedFulltext; terms: string[] }

/**
 * One relation to eager-load, with what to load below it. `children` is keyed by the related
 * table: one key for a direct relation, one per target table for `morphTo`.
 */
export interface WithNode {
  relation: ResolvedRelation
  children: Record<string, WithNode[]>
  /** Aggregates to add to the loaded rows (`posts.commentsCount`), keyed by the related table as `children` is. */
  aggregates?: Record<string, PlannedAggregate[]>
  /**
   * The `with` entry that first asked for this node (`with[0]`), named when its rows cross `maxEagerRows`; default
   * `with`.
   */
  param?: string
}

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
  /** The request's `search`, ANDed with the client's conditions. */
  search?: PlannedSearch
}
