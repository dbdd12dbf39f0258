import { QueryParamsError } from '../errors/query-params-error.ts'
import { OPERATORS, type Operator } from '../query-params.ts'
import type { RawValue } from './raw-value.ts'

const byLowerCase = new Map<string, Operator>([
  ...OPERATORS.map((operator): [string, Operator] => [operator.toLowerCase(), operator]),
  ['<>', '!='],
  ['not in', 'notIn'],
  ['not between', 'notBetween'],
])

/** Reads `wheres[i][operator]` (case-insensitive; missing means `=`). */
export function parseOperator(value: RawValue, param: string): Operator {
  if (value === undefined) return '='
  const operator = typeof value === 'string' ? byLowerCase.get(value.toLowerCase()) : undefined
  if (operator === undefined) {
    throw new QueryParamsError(`Parameter '${param}' must be one of ${OPERATORS.join(', ')}.`, {
      code: 'invalid_operator',
      param,
      allowed: OPERATORS,
    })
  }
  return operator
}
