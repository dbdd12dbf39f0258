import type { Condition, QueryPlan } from '../validate/query-plan.ts'

type Where = QueryPlan['wheres'][number]

/**
 * The branches of the top-level `or` of the client's wheres in `plan` (each the run of wheres joined by `and`
 * between two `or`s, which bind looser, every one `and`), when a page of it is read as the union of its branches
 * (see `disjunctionPage`); else `undefined`. That is a paged, ordered read without `distinct`, search or an order
 * by an aggregate, whose wheres hold an `or` with a relation filter in one of its branches (see
 * {@link filtersThroughRelation}). A database walks such a page in its order and tests every row, however few
 * match; each branch alone is a query it reads from an index. An `or` of column tests only is left as it is:
 * PostgreSQL reads it from a bitmap of each column's index, MariaDB from an index merge.
 */
export function disjunctionBranches(
  plan: Pick<QueryPlan, 'wheres' | 'orders' | 'distinct' | 'search'>,
  paged: boolean,
): ReadonlyArray<readonly Where[]> | undefined {
  if (!paged || plan.orders.length === 0 || plan.distinct !== undefined || plan.search !== undefined) return undefined
  if (plan.orders.some((order) => order.aggregate !== undefined)) return undefined
  const branches: Where[][] = []
  for (const [index, { boolean, condition }] of plan.wheres.entries()) {
    const branch = branches[branches.length - 1]
    const where: Where = { boolean: 'and', condition }
    if (index === 0 || boolean === 'or' || branch === undefined) branches.push([where])
    else branch.push(where)
  }
  if (branches.length < 2) return undefined
  if (!branches.some((branch) => branch.some(({ condition }) => filtersThroughRelation(condition)))) return undefined
  return Object.freeze(branches.map((branch) => Object.freeze(branch)))
}

/**
 * Whether `condition` is a relation filter a database tests row by row: the existence of rows of a to-many
 * relation, or of a relation's relation (`author.posts.views`, `post.author.score`), or through a `morphTo`.
 */
function filtersThroughRelation(condition: Condition): boolean {
  switch (condition.kind) {
    case 'exists':
      return condition.relation.many || condition.inner?.kind === 'exists' || condition.inner?.kind === 'morphExists'
    case 'morphExists':
      return true
    case 'test':
    case 'aggregate':
    case 'fulltext':
      return false
  }
}
