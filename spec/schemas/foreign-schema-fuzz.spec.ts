import { expect } from 'chai'
import fc from 'fast-check'
import { createRentals } from '../../fixtures/rentals/create-rentals.ts'
import { seedRentals } from '../../fixtures/rentals/seed-rentals.ts'
import { applyQueryParams, parseQueryParams, QueryParamsError, type RelationMap } from '../../lib/index.ts'
import { introspectRelationMap } from '../../lib/introspect.ts'
import { dropFreshDatabase, freshDatabase } from '../introspect/support/fresh-database.ts'
import { fuzzSettings } from '../reliability/support/fuzz-settings.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { randomRentalRequest } from './support/rental-requests.ts'

for (const database of testDatabases()) {
  describe(`random valid requests on a schema written by others (${database.label})`, function () {
    this.timeout(300_000)
    let own: TestDatabase
    let map: RelationMap

    before(async () => {
      own = await freshDatabase(database, 'rentals_fuzz')
      await createRentals(own.knex)
      await seedRentals(own.knex)
      map = await introspectRelationMap(own.knex)
    })

    after(async () => {
      await dropFreshDatabase(own)
    })

    it('are answered with rows or a QueryParamsError (400), never another error, on the map the generator wrote', async () => {
      const { seed, numRuns } = fuzzSettings(100)
      let answered = 0
      await fc.assert(
        fc.asyncProperty(randomRentalRequest(map), async ({ table, query }) => {
          try {
            const rows: unknown = await applyQueryParams(own.knex(table), parseQueryParams(query), map)
            expect(rows).to.be.an('array')
            answered++
          } catch (error) {
            if (!(error instanceof QueryParamsError))
              throw new Error(`/${table}?${query}: ${String(error)}`, { cause: error })
            expect(error.status).to.equal(400)
          }
        }),
        { seed, numRuns },
      )
      // Most random requests are valid by construction; a run of nothing but 400s would prove nothing.
      expect(answered).to.be.above(numRuns * 0.9)
    })
  })
}
