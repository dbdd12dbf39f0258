import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { fuzzSettings } from '../reliability/support/fuzz-settings.ts'
import { checkGuardEquivalence } from './support/guard-equivalence.ts'

const settings = fuzzSettings(100)

for (const db of testDatabases()) {
  describe(`row guards: guarded two-tenant result == unguarded single-tenant result (${db.name})`, () => {
    it(`holds for ${settings.numRuns} random valid requests (seed ${settings.seed}), plain guard and guard with an or`, async function () {
      this.timeout(120_000)
      const { cases, withRows } = await checkGuardEquivalence(db, settings)
      expect(cases).to.be.at.least(settings.numRuns)
      expect(
        withRows,
        'a good share of the requests return rows: the comparison is not only of empty results',
      ).to.be.above(cases / 4)
    })
  })
}
