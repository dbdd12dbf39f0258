import type { Condition, QueryPlan } from '../validate/query-plan.ts'

type Where = QueryPlan['wheres'][number]

/**
 * `wheres` in the order they are written: within each run joined by `and` (between two `or`s, which bind looser),
 * the tests of a column first, then the relation filters and aggregate tests, the shallower first (see
 * {@link depthOf}), each depth in the client's order. The rows are the same (SQL gives `and` no order); the database
 * tests the cheap column first and runs a correlated subquery only for the rows that pass it, and a subquery
 * nested in another only for the rows the one-level ones kept. PostgreSQL orders the conditions of a top-level
 * `and` by cost, but not those inside an `or`; MariaDB and SQLite mostly test in the written order (SQLite, posts
 * with `author.posts.views > ?` and a rare `comments.body like`, page 10: 3.4 s written in the client's order,
 * 0.43 s with the one-level filter first).
 */
export function columnTestsFirst(wheres: readonly Where[]): readonly Where[] {
  if (inWrittenOrder(wheres)) return wheres
  const runs: Where[][] = []
  for (const [index, where] of wheres.entries()) {
    const run = runs[runs.length - 1]
    if (index === 0 || where.boolean === 'or' || run === undefined) runs.push([where])
    else run.push(where)
  }
  const written: Where[] = []
  for (const run of runs) {
    const ordered = run
      .map((where, index) => ({ where, index, depth: depthOf(where.condition) }))
      .sort((a, b) => a.depth - b.depth || a.index - b.index)
      .map(({ where }) => where)
    ordered.forEach(({ condition }, index) =>
      written.push({ boolean: index === 0 && written.length > 0 ? 'or' : 'and', condition }),
    )
  }
  return written
}

/**
 * How deep a condition tests: 0 for a column of the table; 1 for a full-text test, an aggregate, or a relation filter
 * on the related rows' columns; one more per relation filter nested in it.
 */
export function depthOf(condition: Condition): number {
  switch (condition.kind) {
    case 'test':
      return 0
    case 'fulltext':
    case 'aggregate':
      return 1
    case 'exists':
      return 1 + (condition.inner == null ? 0 : depthOf(condition.inner))
    case 'morphExists':
      return 1 + Math.max(0, ...condition.branches.map(({ inner }) => (inner == null ? 0 : depthOf(inner))))
  }
}

/**
 * Whether `wheres` are already as {@link columnTestsFirst} writes them (within each and-run, no condition after a
 * deeper one; the first one `and`), so that they are written as they are, without a copy.
 */
function inWrittenOrder(wheres: readonly Where[]): boolean {
  if (wheres[0]?.boolean === 'or') return false
  let deepest = 0
  for (const { boolean, condition } of wheres) {
    if (boolean === 'or') deepest = 0
    const depth = depthOf(condition)
    if (depth < deepest) return false
    deepest = depth
  }
  return true
}
