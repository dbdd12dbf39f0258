import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { fuzzSettings } from './support/fuzz-settings.ts'
import { describeTally } from './support/tally.ts'
import { checkValidCases } from './support/valid-case-property.ts'

const settings = fuzzSettings(300)
const databases = testDatabases()

describe('fuzz: structurally valid QueryParams', () => {
  it(`every valid request over the demo relation map executes on ${databases.map((db) => db.name).join(', ')} without a database error (seed ${settings.seed}, ${settings.numRuns} runs)`, async function () {
    this.timeout(120_000)
    const tally = await checkValidCases(databases, settings)
    console.log(`      ${describeTally(tally)}`)
    expect(tally.executions, 'every case ran on every database').to.equal(settings.numRuns * databases.length)
    expect(tally.withRows, 'executions that returned rows: empty results prove little').to.be.greaterThan(
      tally.executions / 5,
    )
  })
})
