import type { Test } from '../validate/query-plan.ts'
import type { SqlWriter } from './sql-writer.ts'
import { writeValue } from './write-value.ts'

/**
 * Writes one column test on `column` (already quoted), as knex would compile the equivalent where:
 * `is [not] null`, a comparison, the dialect's `like`, `[not] between ? and ?`, `[not] in (?, …)`.
 * An `in` list with a `null` member also tests `is [not] null`; an empty list is always false (`in`)
 * or always true (`notIn`). All values are bound.
 */
export function writeTest(out: SqlWriter, column: string, test: Test): void {
  switch (test.op) {
    case 'null':
      out.text(test.negate ? `${column} is not null` : `${column} is null`)
      return
    case 'compare':
      out.text(`${column} ${test.operator} `)
      writeValue(out, test.value)
      return
    case 'like': {
      const like = out.like === 'sensitive' ? out.dialect.likeSensitive : out.dialect.likeInsensitive
      const pattern = like.pattern(test.pattern)
      out.bind(pattern, like.sql(column))
      for (let more = (like.placeholders ?? 1) - 1; more > 0; more--) out.bindings.push(pattern)
      return
    }
    case 'between':
      out.text(test.negate ? `${column} not between ` : `${column} between `)
      writeValue(out, test.low)
      out.text(' and ')
      writeValue(out, test.high)
      return
    case 'in':
      if (!test.withNull) return writeIn(out, column, test.negate, test.values)
      out.text(test.negate ? `(${column} is not null` : `(${column} is null`)
      if (test.values.length > 0) {
        out.text(test.negate ? ' and ' : ' or ')
        writeIn(out, column, test.negate, test.values)
      }
      out.text(')')
  }
}

function writeIn(out: SqlWriter, column: string, negate: boolean, values: Extract<Test, { op: 'in' }>['values']): void {
  if (values.length === 0) {
    out.text('1 = ').bind(negate ? 1 : 0)
    return
  }
  out.text(negate ? `${column} not in (` : `${column} in (`)
  values.forEach((value, index) => {
    if (index > 0) out.text(', ')
    writeValue(out, value)
  })
  out.text(')')
}
