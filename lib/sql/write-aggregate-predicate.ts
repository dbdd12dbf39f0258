import type { Test, PlannedAggregate } from '../validate/query-plan.ts'
import type { AliasScope } from './alias-scope.ts'
import { writeAggregate } from './write-aggregate.ts'
import type { SqlWriter } from './sql-writer.ts'
import { placeholdersIn } from './fragment.ts'
import { writeTest } from './write-column-predicate.ts'
import { writeExtremeTest } from './write-extreme-test.ts'

const MARK = '\u0000aggregate\u0000'

/**
 * Writes a test on an aggregate of the row known as `ref` (`wheres[i][column]=postsCount`): the test of
 * {@link writeTest} with the aggregate's subquery (see {@link writeAggregate}) where the column would be,
 * its bindings in place each time the test repeats it. A bound on a `min` or `max` is a test of whether related rows
 * reach it instead (see {@link writeExtremeTest}).
 */
export function writeAggregateTest(
  out: SqlWriter,
  aggregate: PlannedAggregate,
  test: Test,
  ref: string,
  scope: AliasScope,
): void {
  const map = out.guards?.map
  if (map === undefined)
    throw new Error('knex-query-params: an aggregate condition needs the row guards of its relation map')
  if (writeExtremeTest(out, aggregate, test, ref, scope, map)) return
  const value = out.fresh()
  writeAggregate(value, aggregate, ref, scope, map)
  const tested = out.fresh()
  writeTest(tested, MARK, test)
  const parts = tested.sql.split(MARK)
  let binding = 0
  parts.forEach((part, index) => {
    if (index > 0) out.append(value)
    const placeholders = placeholdersIn(part)
    out.text(part)
    for (let each = 0; each < placeholders; each++) out.bindings.push(tested.bindings[binding++] ?? null)
  })
}
