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
  })
})
