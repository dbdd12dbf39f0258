import type { RelationMap } from '../relation-map.ts'
import { columnFacts } from '../validate/column-facts.ts'
import type { PlannedAggregate, Test } from '../validate/query-plan.ts'
import type { AliasScope } from './alias-scope.ts'
import { aggregateRows, linkedTo } from './aggregate-rows.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeTest } from './write-column-predicate.ts'

type Compared = Extract<Test, { op: 'compare' }>
type Operator = Compared['operator']

/** One existence test of the related rows: whether some row meets `test` (`some`), or none does (`none`). */
interface Reach {
  some: boolean
  test: Test
}

const HAS_VALUE: Test = { op: 'null', negate: true }

/** `min` reads a `max` test upside down: `min(x) > v` is `max(-x) < -v`. */
const MIRROR: Readonly<Record<Operator, Operator>> = {
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
  '=': '=',
  '!=': '!=',
}

const compare = (operator: Operator, value: Compared['value']): Test => ({ op: 'compare', operator, value })

/**
 * The existence tests a test of `max` (or, mirrored, `min`) is equivalent to, or `undefined` where there are none
 * as simple (`!=`, `in`, `not between`, `null`, `like`). Over no rows (or only NULLs) the aggregate is NULL and
 * every one of these tests is false, as each list below is: it holds a `some`.
 */
function reachesOf(kind: 'min' | 'max', test: Test): Reach[] | undefined {
  const toward = (operator: Operator): Operator => (kind === 'max' ? operator : MIRROR[operator])
  if (test.op === 'between') {
    if (test.negate) return undefined
    const [reached, beyond] = kind === 'max' ? [test.low, test.high] : [test.high, test.low]
    return [
      { some: true, test: compare(toward('>='), reached) },
      { some: false, test: compare(toward('>'), beyond) },
    ]
  }
  if (test.op !== 'compare' || test.operator === '!=') return undefined
  const { value } = test
  switch (toward(test.operator)) {
    case '>':
    case '>=':
      return [{ some: true, test }]
    case '<':
      return [
        { some: true, test: HAS_VALUE },
        { some: false, test: compare(toward('>='), value) },
      ]
    case '<=':
      return [
        { some: true, test: HAS_VALUE },
        { some: false, test: compare(toward('>'), value) },
      ]
    default:
      return [
        { some: true, test },
        { some: false, test: compare(toward('>'), value) },
      ]
  }
}

/**
 * Writes a test of a declared `min` or `max` of the row known as `ref` as tests of whether its related rows reach
 * the bound, in the forms `Dialect.extremeTest` names: `max(views) >= ?` as `exists (select 1 from posts where
 * posts.user_id = users.id and posts.views >= ?)`, `max(views) < ?` as "has a post with views, and none with `views
 * >= ?`". Each stops at the first row that answers and needs no index of the column, where the aggregate reads every
 * related row. The related table's guard and the aggregate's scope apply inside each, as in the aggregate's
 * subquery. Returns `false`, writing nothing, for any other aggregate or test.
 */
export function writeExtremeTest(
  out: SqlWriter,
  aggregate: PlannedAggregate,
  test: Test,
  ref: string,
  scope: AliasScope,
  map: RelationMap,
): boolean {
  const { kind, column } = aggregate
  if ((kind !== 'min' && kind !== 'max') || column === undefined || aggregate.epochSeconds === true) return false
  const reaches = reachesOf(kind, test)
  if (reaches === undefined) return false
  const { nullable } = columnFacts(map, aggregate.relation.table, column)
  // The same related rows in each test: their guard and scope written once.
  const rows = aggregateRows(out, aggregate, scope, map)
  const linked = linkedTo(out, rows, aggregate, ref)
  out.text('(')
  reaches.forEach(({ some, test: each }, index) => {
    const form = some && each !== HAS_VALUE ? out.dialect.extremeTest.some : out.dialect.extremeTest.none
    if (index > 0) out.text(' and ')
    if (form === 'exists') out.text(some ? 'exists (' : 'not exists (')
    else out.text('(')
    out.text(`select 1 from ${rows.from} where ${linked}`)
    if (rows.conditions.sql !== '') out.text(' and ').append(rows.conditions)
    if (each !== HAS_VALUE || nullable) {
      out.text(' and ')
      writeTest(out, rows.column ?? '', each)
    }
    if (form === 'scalar') out.text(some ? ' limit 1) is not null' : ' limit 1) is null')
    else out.text(')')
  })
  out.text(')')
  return true
}
