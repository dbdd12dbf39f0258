import { QueryParamsError } from '../errors/query-params-error.ts'
import { OPERATORS, type ClientScalar, type WhereDescription } from '../query-params.ts'
import type { ColumnType, DatetimeStorage } from '../relation-map.ts'
import { coercedOrUndefined, invalidValue } from './coerce-value.ts'
import type { CoercedValue, Test } from './query-plan.ts'

/**
 * A client's `like` pattern, well-formed on every database: a backslash escapes the next character, so
 * a pattern ending in a lone backslash (a database error on PostgreSQL) gets that backslash escaped,
 * to match a literal backslash. `%` and `_` stay wildcards.
 */
export function likePattern(pattern: string): string {
  const trailing = /\\+$/.exec(pattern)?.[0].length ?? 0
  return trailing % 2 === 1 ? `${pattern}\\` : pattern
}

/** Where a where's parts were sent: `operator()` → `wheres[2][operator]`, `value(1)` → `wheres[2][value][1]`. */
export interface WhereParams {
  column: string
  operator: string
  value(index?: number): string
}

const NOT_FOR_TEXT_ONLY = OPERATORS.filter((operator) => operator !== 'like')

/**
 * Turns a where's operator and value into a {@link Test} on a column of the given type: `null` (or
 * the string `'null'`) with `=`/`!=` is `IS [NOT] NULL`, values are coerced, `like` is only for text
 * (its pattern made well-formed by {@link likePattern}).
 */
export function buildTest(
  where: WhereDescription,
  type: ColumnType,
  params: WhereParams,
  storage: DatetimeStorage = 'text',
): Test {
  const { operator, value } = where
  if (operator === 'like' && type !== 'string') {
    throw new QueryParamsError(`Parameter '${params.operator}': 'like' only applies to text columns.`, {
      code: 'invalid_operator',
      param: params.operator,
      allowed: NOT_FOR_TEXT_ONLY,
    })
  }
  if (Array.isArray(value)) {
    const list = value as readonly ClientScalar[]
    if (operator === 'between' || operator === 'notBetween') {
      return {
        op: 'between',
        negate: operator === 'notBetween',
        low: coerceItem(type, list[0] ?? null, 0, operator, params, storage),
        high: coerceItem(type, list[1] ?? null, 1, operator, params, storage),
      }
    }
    const values: CoercedValue[] = []
    let withNull = false
    list.forEach((item, index) =>
      item === null ? (withNull = true) : values.push(coerceItem(type, item, index, operator, params, storage)),
    )
    return { op: 'in', negate: operator === 'notIn', values, withNull }
  }
  if (operator === 'in' || operator === 'notIn')
    return { op: 'in', negate: operator === 'notIn', values: [], withNull: false }
  const scalar = (value ?? null) as ClientScalar
  if (scalar === null || scalar === 'null') {
    if (operator === '=' || operator === '!=') return { op: 'null', negate: operator === '!=' }
    throw mustNotBeNull(params.value(), operator)
  }
  if (operator === 'like') return { op: 'like', pattern: likePattern(String(coerceWhere('string', scalar, params))) }
  if (operator === 'between' || operator === 'notBetween') {
    throw new QueryParamsError(`Parameter '${params.value()}' must be exactly two values for '${operator}'.`, {
      code: 'invalid_value',
      param: params.value(),
    })
  }
  return { op: 'compare', operator, value: coerceWhere(type, scalar, params, storage) }
}

function coerceItem(
  type: ColumnType,
  item: ClientScalar,
  index: number,
  operator: string,
  params: WhereParams,
  storage: DatetimeStorage,
): CoercedValue {
  if (item === null) throw mustNotBeNull(params.value(index), operator)
  return coerceWhere(type, item, params, storage, index)
}

/** A where's value (item `index` of a list) coerced to `type`; its parameter's path is spelled only for an error. */
function coerceWhere(
  type: ColumnType,
  value: Exclude<ClientScalar, null>,
  params: WhereParams,
  storage: DatetimeStorage = 'text',
  index?: number,
): CoercedValue {
  const coerced = coercedOrUndefined(type, value, storage)
  if (coerced === undefined) throw invalidValue(type, params.value(index))
  return coerced
}

function mustNotBeNull(param: string, operator: string): QueryParamsError {
  return new QueryParamsError(
    `Parameter '${param}' cannot be null with '${operator}'; use '=' or '!=' to test for null.`,
    {
      code: 'invalid_value',
      param,
    },
  )
}
