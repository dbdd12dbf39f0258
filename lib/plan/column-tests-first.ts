import type { QueryPlan } from '../validate/query-plan.ts'

type Where = QueryPlan['wheres'][number]

/**
 * `wheres` in the order they are written: within each run joined by `and` (between two `or`s, which bind looser),
 * the tests of a column first, then the relation filters and aggregate tests, each kind in the client's order.
 * The rows are the same (SQL gives `and` no order); the database tests the cheap column first and runs a
 * correlated subquery only for the rows that pass it. PostgreSQL orders the conditions of a top-level `and` by
 * cost, but not those inside an `or`; MariaDB and SQLite mostly test in the written order.
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
    const ordered = [
      ...run.filter(({ condition }) => condition.kind === 'test'),
      ...run.filter(({ condition }) => condition.kind !== 'test'),
    ]
    ordered.forEach(({ condition }, index) =>
      written.push({ boolean: index === 0 && written.length > 0 ? 'or' : 'and', condition }),
    )
  }
  return written
}

/**
 * Whether `wheres` are already as {@link columnTestsFirst} writes them (no column test after a relation filter or an
 * aggregate test within an and-run, the first one `and`), so that they are written as they are, without a copy.
 */
function inWrittenOrder(wheres: readonly Where[]): boolean {
  if (wheres[0]?.boolean === 'or') return false
  let testsOver = false
  for (const { boolean, condition } of wheres) {
    if (boolean === 'or') testsOver = false
    if (condition.kind !== 'test') testsOver = true
    else if (testsOver) return false
  }
  return true
}
