import type { Condition, Test } from '../validate/query-plan.ts'
import type { SqlWriter } from './sql-writer.ts'

type ColumnTest = Extract<Condition, { kind: 'test' }>

const isEquality = (test: Test): boolean =>
  test.op === 'in' || (test.op === 'compare' && (test.operator === '=' || test.operator === '!='))

/**
 * The quoted column a test reads, as the dialect reads an enum or a `CHAR(n)` column for that test
 * (see `Dialect.textColumn`).
 */
export function testedColumn(out: SqlWriter, condition: ColumnTest, ref: string): string {
  const column = out.names.column(ref, condition.column)
  const { text, test } = condition
  const read = out.dialect.textColumn
  if (text === undefined || read === undefined || test.op === 'null') return column
  return read(column, text, test.op === 'like' ? 'like' : isEquality(test) ? 'equal' : 'compare')
}
