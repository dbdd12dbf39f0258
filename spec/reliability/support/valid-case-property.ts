import fc from 'fast-check'
import { relationMap } from '../../../fixtures/relation-map.ts'
import { applyQueryParams } from '../../../lib/index.ts'
import type { TestDatabase } from '../../support/databases.ts'
import { outcomeOf } from './client-outcome.ts'
import type { FuzzSettings } from './fuzz-settings.ts'
import { CASE_LIMIT_MS } from './raw-query-property.ts'
import { newTally, type Tally } from './tally.ts'
import { validCase } from './valid-case-arbitrary.ts'

/**
 * Property (2): a structurally valid request — allow-listed columns and relation paths, values fitting
 * their types (unicode, wide integers, extreme dates and doubles included), orders, pagination, with —
 * executes on every database: no database error and no rejection.
 */
export async function checkValidCases(databases: readonly TestDatabase[], settings: FuzzSettings): Promise<Tally> {
  const tally = newTally()
  const property = fc.asyncProperty(validCase('any'), async ({ table, params, options }) => {
    tally.cases++
    for (const db of databases) {
      const what = `${db.name}: ${table} ${JSON.stringify(params).slice(0, 600)} ${JSON.stringify(options)}`
      const outcome = await outcomeOf(
        () => applyQueryParams(db.knex(table), params, relationMap, options),
        CASE_LIMIT_MS,
        what,
      )
      tally.executions++
      if (outcome.kind === 'rejected')
        throw new Error(`${what} was rejected: ${outcome.error.code} ${outcome.error.message}`)
      if (outcome.rows.length > 0) tally.withRows++
    }
  })
  await fc.assert(property, { seed: settings.seed, numRuns: settings.numRuns })
  return tally
}
