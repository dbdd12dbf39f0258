import type { DirectRelation } from './resolved-relation.ts'

/** One column pair of a relation key: the parent's column and the related (or pivot) column equal to it. */
export interface KeyPair {
  parent: string
  related: string
}

/**
 * The column pairs that link a parent row to its related rows: one for a one-column key (`parentKey`,
 * `relatedKey`), one per column of a composite key, in key order.
 */
export function keyPairs(relation: DirectRelation): KeyPair[] {
  const { composite } = relation
  if (composite === undefined) return [{ parent: relation.parentKey, related: relation.relatedKey }]
  return composite.parentKeys.map((parent, index) => ({ parent, related: composite.relatedKeys[index] ?? parent }))
}

/** The parent's key columns of a relation: `[parentKey]`, or every column of a composite key. */
export const parentKeyColumns = (relation: DirectRelation): readonly string[] =>
  relation.composite?.parentKeys ?? [relation.parentKey]

/** The related table's key columns of a relation: `[relatedKey]`, or every column of a composite key. */
export const relatedKeyColumns = (relation: DirectRelation): readonly string[] =>
  relation.composite?.relatedKeys ?? [relation.relatedKey]
