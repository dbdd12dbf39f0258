import { QueryParamsError } from '../errors/query-params-error.ts'
import { OPERATORS, type Operator } from '../query-params.ts'
import type { RawValue } from './raw-value.ts'

const byLowerCase = new Map<string, Operator>([
  ...OPERATORS.map((operator): [string, Operator] => [operator.toLowerCase(), operator]),
  ['<>', '!='],
  ['not in', 'notIn'],
  ['not between', 'notBetween'],
])

/** Reads `<param>[operator]` (case-insensitive; missing means `=`); `param` is the where's path, e.g. `wheres[2]`. */
export function parseOperator(value: RawValue, param: string): Operator {
  if (value === undefined) return '='
  const operator = typeof value === 'string' ? (exactly(value) ?? byLowerCase.get(value.toLowerCase())) : undefined
  if (operator === undefined) {
    const path = `${param}[operator]`
    throw new QueryParamsError(`Parameter '${path}' must be one of ${OPERATORS.join(', ')}.`, {
      code: 'invalid_operator',
      param: path,
      allowed: OPERATORS,
    })
  }
  return operator
}

/** The operator `value` spells exactly as the reference client sends it: compared, not hashed. */
function exactly(value: string): Operator | undefined {
  for (const operator of OPERATORS) if (operator === value) return operator
  return undefined
}
