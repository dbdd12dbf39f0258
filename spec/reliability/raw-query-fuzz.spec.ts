import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { fuzzSettings } from './support/fuzz-settings.ts'
import { checkRawQueries } from './support/raw-query-property.ts'
import { describeTally } from './support/tally.ts'

const settings = fuzzSettings(1000)
const databases = testDatabases()

describe('fuzz: raw query strings', () => {
  it(`any raw query string gives rows or a QueryParamsError on ${databases.map((db) => db.name).join(', ')} — never another error, never a hang (seed ${settings.seed}, ${settings.numRuns} runs)`, async function () {
    this.timeout(120_000)
    const tally = await checkRawQueries(databases, settings)
    console.log(`      ${describeTally(tally)}`)
    expect(tally.cases, 'cases generated').to.equal(settings.numRuns)
    expect(tally.executions, 'requests that parsed and ran: a run rejected at parsing tests no SQL').to.be.at.least(
      (settings.numRuns * databases.length) / 5,
    )
    expect(tally.withRows, 'executions that returned rows: empty results prove little').to.be.greaterThan(
      tally.executions / 10,
    )
    expect(tally.rejected, 'QueryParamsErrors: the generator sends bad input too').to.be.greaterThan(
      settings.numRuns / 10,
    )
  })
})
