import type { Knex } from 'knex'
import { QueryParamsError } from '../errors/query-params-error.ts'
import type { RelationMap } from '../relation-map.ts'
import type { QueryPlan } from '../validate/query-plan.ts'
import { internalsOf } from './knex-internals.ts'

/**
 * Sets the select list: `distinct` (with any `columns`) as `SELECT DISTINCT`, else the client's
 * `columns`, else the caller's own select, else every allow-listed column — never `*`. Adds the keys
 * eager loading needs (`keys`) when missing and returns those, to be removed from the rows later.
 */
export function applySelection(builder: Knex.QueryBuilder, ref: string, plan: QueryPlan, map: RelationMap, keys: readonly string[]): string[] {
  if (plan.distinct !== undefined) {
    const selected = [...new Set([...plan.distinct, ...(plan.columns ?? [])])]
    const missing = keys.filter((key) => !selected.includes(key))
    if (missing.length > 0) {
      throw new QueryParamsError(`Parameter 'distinct': loading these relations needs ${missing.join(', ')} among the distinct columns.`, {
        code: 'invalid_distinct',
        param: 'distinct',
        allowed: selected,
      })
    }
    builder.clearSelect().distinct(qualify(ref, selected))
    return []
  }
  if (plan.columns !== undefined) {
    const extra = keys.filter((key) => !plan.columns?.includes(key))
    builder.clearSelect().select(qualify(ref, [...new Set(plan.columns), ...extra]))
    return extra
  }
  const callerColumns = callerSelection(builder)
  if (callerColumns !== undefined) {
    if (callerColumns.includes('*') || callerColumns.includes(`${ref}.*`)) return []
    const extra = keys.filter((key) => !callerColumns.includes(key) && !callerColumns.includes(`${ref}.${key}`))
    if (extra.length > 0) builder.select(qualify(ref, extra))
    return extra
  }
  const allowed = Object.keys(map[plan.table]?.columns ?? {})
  const extra = keys.filter((key) => !allowed.includes(key))
  builder.select(qualify(ref, [...allowed, ...extra]))
  return extra
}

function qualify(ref: string, columns: readonly string[]): string[] {
  return columns.map((column) => `${ref}.${column}`)
}

function callerSelection(builder: Knex.QueryBuilder): string[] | undefined {
  const statements = internalsOf(builder)._statements.filter((statement) => statement.grouping === 'columns')
  if (statements.length === 0) return undefined
  return statements.flatMap((statement) => (Array.isArray(statement.value) ? statement.value : [statement.value]).map(String))
}
