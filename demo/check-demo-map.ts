import type { Knex } from 'knex'
import { checkRelationMap, type RelationMap, type RelationMapProblem } from '../lib/index.ts'
import { MapMismatchError } from './map-mismatch-error.ts'

/**
 * Checks `map` against the database with `checkRelationMap` before the demo serves it: any error-level
 * problem is a {@link MapMismatchError} listing them all; warnings come back for the log.
 *
 * @example
 * const warnings = await checkDemoMap(db, demoRelationMap)
 */
export async function checkDemoMap(db: Knex, map: RelationMap): Promise<RelationMapProblem[]> {
  const problems = await checkRelationMap(db, map)
  if (problems.some((problem) => problem.level === 'error')) throw new MapMismatchError(problems)
  return problems
}
