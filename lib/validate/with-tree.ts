import type { ResolvedRelation } from './resolved-relation.ts'

/**
 * One relation to eager-load, with what to load below it. `children` is keyed by the related
 * table: one key for a direct relation, one per target table for `morphTo`.
 */
export interface WithNode {
  relation: ResolvedRelation
  children: Record<string, WithNode[]>
  /** The `with` entry that first asked for this node (`with[0]`), named when its rows cross `maxEagerRows`; default `with`. */
  param?: string
}
