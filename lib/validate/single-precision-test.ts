import { fitsSinglePrecision } from '../map/single-precision.ts'
import type { CoercedValue, Test } from './query-plan.ts'

const single = (value: CoercedValue): CoercedValue =>
  typeof value === 'number' && fitsSinglePrecision(value) ? Math.fround(value) : value

/**
 * A test on a single-precision column (`precision: 'single'`) with each number rounded to single precision, as
 * the column holds it: `score <= 0.1` then keeps the row stored as `0.1` on MySQL, whose `FLOAT` column holds
 * 0.100000001…, as it does on PostgreSQL. A number the column cannot hold stays as sent (compared as a double).
 */
export function singlePrecisionTest(test: Test): Test {
  switch (test.op) {
    case 'compare':
      return { ...test, value: single(test.value) }
    case 'between':
      return { ...test, low: single(test.low), high: single(test.high) }
    case 'in':
      return { ...test, values: test.values.map(single) }
    default:
      return test
  }
}
