import type { RelationType } from '../relation-map.ts'

/** The pivot hop of a `belongsToMany` relation. */
export interface PivotHop {
  table: string
  /** Pivot column that references the parent's `parentKey`. */
  parentColumn: string
  /** Pivot column that references the related table's `relatedKey`. */
  relatedColumn: string
}

/** The columns of a composite relation key on each side, paired in order (two or more). */
export interface CompositeKey {
  parentKeys: readonly string[]
  relatedKeys: readonly string[]
}

/** One order of a relation's top N, on a database column of the related table. */
export interface ResolvedOrder {
  column: string
  direction: 'asc' | 'desc'
  nullable: boolean
}

/**
 * A to-many relation's declared `limit` and `orders`: eager loading gives each parent at most `limit` rows, in that
 * order.
 */
export interface RelationTop {
  limit: number
  orders: ResolvedOrder[]
}

/**
 * A relation from one table to another, with every key resolved. The related rows are those where
 * `related.<relatedKey> = parent.<parentKey>` (or, through `pivot`, where the pivot links them),
 * restricted to `related.<morph.column> = morph.value` for morphOne/morphMany.
 */
export interface DirectRelation {
  kind: 'direct'
  name: string
  type: Exclude<RelationType, 'morphTo'>
  many: boolean
  parentTable: string
  table: string
  parentKey: string
  relatedKey: string
  /**
   * A composite key (a foreign key of several columns): the parent's and the related table's columns, paired in
   * order; `parentKey` and `relatedKey` are their first columns. Absent for a one-column key (see `keyPairs`).
   */
  composite?: CompositeKey
  pivot?: PivotHop
  morph?: { column: string; value: string }
  /** A belongsTo declared `required: true`: every row has its related row. */
  required?: boolean
  /** A to-many relation's declared `limit` (and `orders`); eager loading only. */
  top?: RelationTop
}

/** One possible target of a `morphTo` relation. */
export interface MorphTarget {
  /** Value of the parent's type column that selects this table. */
  typeValue: string
  table: string
  /** The target table's key the parent's id column references. */
  key: string
}

/** A `morphTo` relation: the parent's `typeColumn` picks one of `targets`, its `idColumn` the row. */
export interface MorphToResolved {
  kind: 'morphTo'
  name: string
  type: 'morphTo'
  many: false
  parentTable: string
  typeColumn: string
  idColumn: string
  targets: MorphTarget[]
}

/** A relation of the map with every default filled in. */
export type ResolvedRelation = DirectRelation | MorphToResolved
