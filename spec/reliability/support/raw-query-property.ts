import { expect } from 'chai'
import fc from 'fast-check'
import { relationMap } from '../../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../../lib/index.ts'
import type { QueryParams } from '../../../lib/query-params.ts'
import type { TestDatabase } from '../../support/databases.ts'
import { outcomeOf } from './client-outcome.ts'
import type { FuzzSettings } from './fuzz-settings.ts'
import { rawQueryCase } from './raw-query-arbitrary.ts'
import { newTally, type Tally } from './tally.ts'

/**
 * Longest a single parse, or a single request on one database, may take before it counts as a hang: a
 * detector for requests that never settle, not a performance bound (speed is measured in `npm run bench`), so
 * it is far above what a case takes even on a loaded machine.
 */
export const CASE_LIMIT_MS = 30_000

function expectNoPollution(): void {
  expect(Object.keys(Object.prototype), 'Object.prototype was polluted').to.deep.equal([])
  expect(({} as Record<string, unknown>)['polluted'], 'Object.prototype was polluted').to.equal(undefined)
}

/**
 * Property (1): any raw query string, parsed and applied to a demo table and executed on every database,
 * either returns rows without a database error or is rejected with a well-formed `QueryParamsError` —
 * never another exception, never a hang, never a polluted `Object.prototype`.
 */
export async function checkRawQueries(databases: readonly TestDatabase[], settings: FuzzSettings): Promise<Tally> {
  const tally = newTally()
  const property = fc.asyncProperty(rawQueryCase, async ({ table, query, strict }) => {
    tally.cases++
    let params: QueryParams | undefined
    const parsed = await outcomeOf(
      () => {
        params = parseQueryParams(query, { strict })
        return []
      },
      CASE_LIMIT_MS,
      `parseQueryParams(${JSON.stringify(query.slice(0, 300))})`,
    )
    expectNoPollution()
    if (parsed.kind === 'rejected' || params === undefined) {
      tally.rejected++
      return
    }
    const ready = params
    for (const db of databases) {
      const outcome = await outcomeOf(
        () => applyQueryParams(db.knex(table), ready, relationMap),
        CASE_LIMIT_MS,
        `${db.name}: ${table}?${query.slice(0, 300)}`,
      )
      tally.executions++
      if (outcome.kind === 'rejected') tally.rejected++
      else if (outcome.rows.length > 0) tally.withRows++
    }
  })
  await fc.assert(property, { seed: settings.seed, numRuns: settings.numRuns })
  return tally
}
