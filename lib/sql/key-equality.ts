import { keyPairs } from '../validate/key-pairs.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { Identifiers } from './identifiers.ts'

/**
 * The condition that links a related row (known as `relatedRef`) to its parent row (`parentRef`):
 * `"related"."key" = "parent"."key"`, or for a composite key one such equality per column pair, joined by `and`
 * (`"payment"."rental_id" = "rental"."rental_id" and "payment"."rental_date" = "rental"."rental_date"`). Each pair
 * compares two columns in the database, so dates in a key meet as the database stores them. `parentFirst` writes
 * the parent's column on the left.
 */
export function keyEquality(
  names: Identifiers,
  relation: DirectRelation,
  relatedRef: string,
  parentRef: string,
  parentFirst = false,
): string {
  return keyPairs(relation)
    .map(({ parent, related }) => {
      const left = names.column(relatedRef, related)
      const right = names.column(parentRef, parent)
      return parentFirst ? `${right} = ${left}` : `${left} = ${right}`
    })
    .join(' and ')
}
