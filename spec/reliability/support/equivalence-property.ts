import { expect } from 'chai'
import fc from 'fast-check'
import { relationMap } from '../../../fixtures/relation-map.ts'
import { applyQueryParams } from '../../../lib/index.ts'
import type { TestDatabase } from '../../support/databases.ts'
import type { Row } from '../../support/rows.ts'
import { outcomeOf } from './client-outcome.ts'
import type { FuzzSettings } from './fuzz-settings.ts'
import { CASE_LIMIT_MS } from './raw-query-property.ts'
import { newTally, type Tally } from './tally.ts'
import { validCase, type ValidCase } from './valid-case-arbitrary.ts'

const sortedByJson = (rows: readonly Row[]): string[] => rows.map((row) => JSON.stringify(row)).sort()

/** Whether the database fixes the order of the rows: every case but `distinct` gets a final primary-key order. */
function fullyOrdered({ params }: ValidCase): boolean {
  return (
    params.distinct === undefined ||
    params.limit !== undefined ||
    params.offset !== undefined ||
    params.page !== undefined
  )
}

/**
 * Property (3): a portable valid request returns the same rows on every database — in the same order
 * when the request orders them fully — as the library returns them (every allow-listed column normalized to
 * the JSON value of its declared type, eager-loaded rows included). Requests whose rows depend on text
 * collation are not compared with MySQL (see {@link ValidCase.collationSensitive}).
 */
export async function checkEquivalence(databases: readonly TestDatabase[], settings: FuzzSettings): Promise<Tally> {
  const tally = newTally()
  const property = fc.asyncProperty(validCase('portable'), async (testCase) => {
    const { table, params, options, collationSensitive } = testCase
    tally.cases++
    const results: Array<{ db: TestDatabase; rows: Row[] }> = []
    for (const db of databases) {
      if (db.name === 'mysql' && collationSensitive) continue
      const what = `${db.name}: ${table} ${JSON.stringify(params)} ${JSON.stringify(options)}`
      const outcome = await outcomeOf(
        () => applyQueryParams(db.knex(table), params, relationMap, options),
        CASE_LIMIT_MS,
        what,
      )
      tally.executions++
      if (outcome.kind === 'rejected')
        throw new Error(`${what} was rejected: ${outcome.error.code} ${outcome.error.message}`)
      if (outcome.rows.length > 0) tally.withRows++
      // The library's own JSON values, compared as they are: no test-side normalisation.
      results.push({ db, rows: outcome.rows as Row[] })
    }
    const [first, ...others] = results
    if (first === undefined) return
    for (const other of others) {
      tally.comparisons++
      const message = `${first.db.name} vs ${other.db.name} on ${table} ${JSON.stringify(params)} ${JSON.stringify(options)}`
      if (fullyOrdered(testCase)) expect(other.rows, message).to.deep.equal(first.rows)
      else expect(sortedByJson(other.rows), message).to.deep.equal(sortedByJson(first.rows))
    }
  })
  await fc.assert(property, { seed: settings.seed, numRuns: settings.numRuns })
  return tally
}
