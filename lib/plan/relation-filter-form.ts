import type { DialectPlanner } from '../dialect/dialect-roles.ts'
import type { RelationMap } from '../relation-map.ts'
import { columnFacts } from '../validate/column-facts.ts'
import type { Condition } from '../validate/query-plan.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'

/** How one relation filter is written: a correlated `exists`, or `key in (select …)`. */
export type RelationFilterForm = 'exists' | 'in'

/**
 * Picks the form of a relation filter from the condition its related rows must meet, whether its relation is
 * to-many (`many`), and whether the filter is written inside the subquery of a to-many relation filter
 * (`underMany`).
 */
export type RelationFilterChooser = (inner: Condition, many: boolean, underMany: boolean) => RelationFilterForm

/**
 * The chooser for a dialect whose `filteredRelation` is `'by-selectivity'` (SQLite): `key in (select …)`
 * when the related condition is selective by declaration (see {@link selectiveByDeclaration}) or when the
 * query reads every match (no limit), where the list is built once instead of probing per base row; a
 * correlated `exists` for a page filtered by a broad condition, which stops once the page is full. A path that
 * fans out is listed too (issue 35): a filter inside a to-many relation filter (`posts` and `cover` of
 * `tags.posts.cover.url`), and a to-many relation filter holding one (`tags`). Correlated, the inner test runs once
 * per related row of every base row (over 240 s for `tags.posts.cover.url like 'delta%'` ordered by `author.email`
 * on 120k posts, 0.2 s listed); listed, each list costs at most one pass over its tables.
 */
export function chooseBySelectivity(map: RelationMap, paged: boolean): RelationFilterChooser {
  return (inner, many, underMany) =>
    !paged || underMany || (many && holdsSubquery(inner)) || selectiveByDeclaration(map, inner) ? 'in' : 'exists'
}

/** Whether a condition is a test written as a correlated subquery: a relation filter or an aggregate's. */
function holdsSubquery(condition: Condition): boolean {
  return condition.kind !== 'test'
}

/**
 * Whether the map guarantees that `condition` matches few rows: equality or `in` on the primary key or on a
 * `unique: true` column, or a relation filter (any hop) whose own condition is selective.
 */
export function selectiveByDeclaration(map: RelationMap, condition: Condition): boolean {
  switch (condition.kind) {
    case 'test': {
      const { test } = condition
      const narrow = (test.op === 'compare' && test.operator === '=') || (test.op === 'in' && !test.negate)
      return narrow && columnFacts(map, condition.table, condition.column).unique
    }
    case 'exists':
      return condition.inner !== null && selectiveByDeclaration(map, condition.inner)
    case 'morphExists':
      return condition.branches.every(({ inner }) => inner !== null && selectiveByDeclaration(map, inner))
    case 'aggregate':
    case 'fulltext':
      return false
  }
}

/**
 * Whether a relation filter is written key first (`write-key-first.ts`): told the relation, the condition
 * its related rows must meet and the name of the table it filters.
 */
export type KeyFirstChooser = (
  relation: DirectRelation,
  inner: Condition,
  ref: string,
) => inner is Condition & { kind: 'test' }

/**
 * Whether `inner` (the condition on `relation`'s related rows) is passed by at most one related row, as the
 * map declares: equality on the primary key or on a `unique: true` column of the related table itself; never
 * through a composite key.
 */
export function keyFirstTest(
  map: RelationMap,
  relation: DirectRelation,
  inner: Condition,
): inner is Condition & { kind: 'test' } {
  // A composite key has no one column to compare with the scalar subquery.
  if (inner.kind !== 'test' || inner.table !== relation.table || relation.composite !== undefined) return false
  return (
    inner.test.op === 'compare' && inner.test.operator === '=' && columnFacts(map, inner.table, inner.column).unique
  )
}

/**
 * The key-first chooser of a query on `ref` whose first order is `firstOrder` (a base column, or `undefined`),
 * as the dialect's `keyFirstRelation` says: every filter of {@link keyFirstTest} (`'always'`), or only where the
 * index on the referencing column serves the page (`'where-it-orders'`): a filter on the base table itself,
 * directly (`posts.user_id = (select …)` reads `posts(user_id, created_at)` in order) or through a pivot when
 * the page is ordered by the key the pivot references (its `(tag_id, post_id)` index yields the page in order).
 * `always` writes every such filter key first, whatever the dialect says (the walking form of
 * `Dialect.frequencyGuard`).
 */
export function chooseKeyFirst(
  map: RelationMap,
  dialect: Pick<DialectPlanner, 'keyFirstRelation'>,
  ref: string,
  firstOrder: string | undefined,
  always = false,
): KeyFirstChooser {
  return (relation, inner, at): inner is Condition & { kind: 'test' } => {
    if (!keyFirstTest(map, relation, inner)) return false
    if (always || dialect.keyFirstRelation === 'always') return true
    return at === ref && (relation.pivot === undefined || firstOrder === relation.parentKey)
  }
}
