import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RelationMap } from '../relation-map.ts'
import type { WhereParams } from './build-column-predicate.ts'
import type { Test } from './query-plan.ts'

/**
 * How a test reads a `string` column that is not plain text: `enum`, a column declared with `values`;
 * `padded`, a `CHAR(n)` column declared `padded: true`. The dialect decides what each needs (see
 * `Dialect.textColumn`).
 */
export type TextColumnKind = 'enum' | 'padded'

/** A column that is not plain text: its {@link TextColumnKind}, and an enum's declared values. */
export interface TextColumn {
  kind: TextColumnKind
  values?: readonly string[]
}

/** The {@link TextColumn} of the map's column `name` of `table`; `undefined` for plain columns. */
export function textColumnOf(map: RelationMap, table: string, name: string): TextColumn | undefined {
  const spec = map[table]?.columns[name]
  if (spec === undefined || typeof spec === 'string' || spec.type !== 'string') return undefined
  if (spec.values !== undefined) return { kind: 'enum', values: spec.values }
  return spec.padded === true ? { kind: 'padded' } : undefined
}

/**
 * Checks that an equality test (`=`, `!=`, `in`, `notIn`) on an enum column names only its declared `values`:
 * any other value is `invalid_value` with the allowed list, where the database would match nothing (MySQL,
 * SQLite) or fail (PostgreSQL: `invalid input value for enum`).
 */
export function checkEnumValues(test: Test, values: readonly string[], params: WhereParams): void {
  const check = (value: unknown, index?: number): void => {
    if (typeof value === 'string' && values.includes(value)) return
    const param = params.value(index)
    const message = `Parameter '${param}' must be one of the column's values.`
    throw new QueryParamsError(message, { code: 'invalid_value', param, allowed: values })
  }
  if (test.op === 'compare' && (test.operator === '=' || test.operator === '!=')) check(test.value)
  if (test.op === 'in') test.values.forEach((value, index) => check(value, index))
}
