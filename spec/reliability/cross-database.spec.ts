import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { checkEquivalence } from './support/equivalence-property.ts'
import { fuzzSettings } from './support/fuzz-settings.ts'
import { describeTally } from './support/tally.ts'

const settings = fuzzSettings(300)
const databases = testDatabases()

describe('fuzz: cross-database equivalence', () => {
  it(`random valid requests return the same rows on ${databases.map((db) => db.name).join(', ')} (seed ${settings.seed}, ${settings.numRuns} runs)`, async function () {
    if (databases.length < 2) this.skip()
    this.timeout(120_000)
    const tally = await checkEquivalence(databases, settings)
    console.log(`      ${describeTally(tally)}`)
    expect(tally.comparisons, 'cross-database comparisons made').to.be.greaterThan(settings.numRuns / 2)
    expect(tally.withRows, 'executions that returned rows: comparing empty results proves little').to.be.greaterThan(
      tally.executions / 5,
    )
  })
})
