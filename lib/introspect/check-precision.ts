import type { ColumnSpec } from '../relation-map.ts'
import type { SchemaColumn } from '../dialect/schema/schema-snapshot.ts'
import { relationMapProblem, type RelationMapProblem } from './relation-map-problem.ts'

/**
 * Whether a `number` column's declared `precision` is the database's: a single-precision column (PostgreSQL
 * `real`, MySQL/MariaDB `FLOAT`) declared otherwise is a warning (`<= 0.1` keeps or drops the row stored as
 * 0.1 depending on the database), a column declared `'single'` that the database holds as a double an error
 * (client values would be rounded before they are compared).
 */
export function checkPrecision(
  path: string,
  spec: ColumnSpec,
  column: SchemaColumn,
  where: string,
): RelationMapProblem[] {
  if (typeof spec === 'string' ? spec !== 'number' : spec.type !== 'number') return []
  const declared = typeof spec === 'object' && spec.precision === 'single'
  const stored = column.precision === 'single'
  if (stored && !declared) {
    const fix = `declare { type: 'number', precision: 'single' } so values compare as it holds them`
    const what = `${where} is ${column.dataType}, a single-precision float: ${fix}`
    return [relationMapProblem('single_precision_undeclared', path, what)]
  }
  if (declared && !stored && column.type === 'number') {
    const what = `${where} is ${column.dataType}, a double: client values would be rounded to single precision`
    return [relationMapProblem('single_precision_not_stored', path, `declared precision: 'single', but ${what}`)]
  }
  return []
}
