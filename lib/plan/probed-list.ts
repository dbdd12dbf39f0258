import type { RelationMap } from '../relation-map.ts'
import type { Condition, QueryPlan, Test } from '../validate/query-plan.ts'
import { innerPath } from './inner-path.ts'
import { correlated } from './condition-style.ts'
import { selectiveByDeclaration, type RelationFilterChooser } from './relation-filter-form.ts'

/** A relation filter of the client's wheres whose key list a probe counts (see {@link probedListFilter}). */
export type ProbedFilter = Condition & { kind: 'exists'; inner: Condition }

/**
 * The relation filter of a page's conditions that a probe may list (SQLite, `Dialect.filteredRelation`
 * `'by-selectivity'`), or `undefined`. A page walked in its order tests a correlated filter per base row until the
 * page is full; for a value few related rows hold, that is every base row (posts with `comments.body = ?`, 3 of
 * 600,000: 390 ms walked, under 1 ms listed from the index on `body`). Listed, the filter's key list is built
 * first, and its keys' rows are read from the foreign key's index and sorted: for a value many rows hold, a pass
 * over all of them where the walk stopped after a few. A probe counts the list's rows up to the frequency guard's
 * cap and picks (see `guardedForms`).
 *
 * No filter is probed where another condition keeps the walk short already: an equality on a base column (posts
 * with `user_id = ?`: a 1 ms walk, 14 ms listed), a relation filter few rows pass by declaration, or one listed
 * anyway. The candidate is one filter, joined by `and` with every other condition (no `or` among the client's wheres),
 * written correlated by `chooser`, whose list is one subquery of a to-many relation: a column test on the related
 * rows of a relation with a one-column key (`comments.body = ?`, through a pivot too), or a `required` belongsTo hop
 * to a table without a guard whose related rows are tested through a to-many relation keyed on the hop's related
 * key (`author.posts.views = ?`, listed as `posts.user_id in (select posts_2.user_id …)`). A to-one filter is left
 * correlated: its test is one row found by key per base row, or the row the page joins for its orders. Of several, the most selective test by its operator: an
 * equality or `in`, then a `like`, then any other, the first written within each.
 */
export function probedListFilter(
  map: RelationMap,
  query: Pick<QueryPlan, 'wheres'>,
  chooser: RelationFilterChooser,
): ProbedFilter | undefined {
  if (!joinedByAndOnly(query.wheres)) return undefined
  if (query.wheres.some(({ condition }) => boundsWalk(map, condition, chooser))) return undefined
  let best: { filter: ProbedFilter; rank: number } | undefined
  for (const { condition } of query.wheres) {
    const leaf = listedLeaf(map, condition)
    if (leaf === undefined || condition.kind !== 'exists' || condition.inner === null) continue
    if (chooser(condition.inner, condition.relation.many, false) !== 'exists') continue
    const rank = rankOf(leaf)
    if (best === undefined || rank < best.rank) best = { filter: condition as ProbedFilter, rank }
  }
  return best?.filter
}

/**
 * The relation filters of `wheres` (all joined by `and`) a page walks instead of listing when every one of their
 * lists is long (`Dialect.listedWalk`), or `undefined`: each relation filter must be one a probe can count (see
 * {@link probedListFilter}: a column test on a to-many relation's rows, through a pivot too), so that a rare filter
 * beside a common one keeps the list that finds its few rows, and no condition may keep the list short already (an
 * equality or `in` on a base column, a filter few rows pass by declaration). Relation filters without a condition
 * (`relations_exists`) are tested per row in either form.
 */
export function listedWalkFilters(map: RelationMap, wheres: QueryPlan['wheres']): ProbedFilter[] | undefined {
  const filters: ProbedFilter[] = []
  for (const { condition } of wheres) {
    if (boundsWalk(map, condition, correlated)) return undefined
    if (condition.kind === 'morphExists') return undefined
    if (condition.kind !== 'exists') continue
    if (condition.inner === null || listedLeaf(map, condition) === undefined) return undefined
    filters.push(condition as ProbedFilter)
  }
  return filters.length === 0 ? undefined : filters
}

/** Whether `wheres` are all joined by `and` (the first one's `boolean` joins it to nothing). */
export function joinedByAndOnly(wheres: QueryPlan['wheres']): boolean {
  return wheres.every(({ boolean }, index) => index === 0 || boolean === 'and')
}

/**
 * The chooser of the listing form: `chooser`, except that `filter` (and the relation filter its list is written
 * through, see {@link probedListFilter}) is listed.
 */
export function listingProbed(chooser: RelationFilterChooser, filter: ProbedFilter): RelationFilterChooser {
  const { inner } = filter
  const through = inner.kind === 'exists' ? inner.inner : null
  return (condition, many, underMany) =>
    condition === inner || condition === through ? 'in' : chooser(condition, many, underMany)
}

/**
 * Whether `condition` keeps a walk short by itself: an equality or `in` on a column of the base table (a key, a
 * foreign key: SQLite reads the rows it keeps from the column's index), a relation filter few rows pass by
 * declaration (see `selectiveByDeclaration`), or one `chooser` lists, from whose list SQLite reads the base rows.
 */
function boundsWalk(map: RelationMap, condition: Condition, chooser: RelationFilterChooser): boolean {
  if (condition.kind === 'test') return rankOf(condition.test) === 0
  return (
    selectiveByDeclaration(map, condition) ||
    (condition.kind === 'exists' &&
      condition.inner !== null &&
      condition.relation.composite === undefined &&
      chooser(condition.inner, condition.relation.many, false) === 'in')
  )
}

/** The test of the one list `condition` would be written as (see {@link probedListFilter}), or `undefined`. */
function listedLeaf(map: RelationMap, condition: Condition): Test | undefined {
  if (condition.kind !== 'exists' || condition.inner === null || condition.relation.composite !== undefined)
    return undefined
  const { relation, inner } = condition
  if (inner.kind === 'test') return relation.many ? inner.test : undefined
  if (
    inner.kind !== 'exists' ||
    inner.inner?.kind !== 'test' ||
    !inner.relation.many ||
    inner.relation.composite !== undefined
  )
    return undefined
  const passesKeyOn =
    innerPath(map, [relation]) &&
    relation.composite === undefined &&
    inner.relation.parentTable === relation.table &&
    inner.relation.parentKey === relation.relatedKey
  return passesKeyOn ? inner.inner.test : undefined
}

function rankOf(test: Test): number {
  if ((test.op === 'compare' && test.operator === '=') || (test.op === 'in' && !test.negate)) return 0
  return test.op === 'like' ? 1 : 2
}
