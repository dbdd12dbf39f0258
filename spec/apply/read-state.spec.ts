import { expect } from 'chai'
import { readInForm } from '../../lib/apply/page-rewrite.ts'
import { readStateOf } from '../../lib/apply/read-state.ts'
import { paginate } from '../../lib/index.ts'
import { cloneWithEagerLoading } from '../../lib/read/clone-with-eager-loading.ts'
import { statementCopy } from '../../lib/knex/builder-methods.ts'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'

const REQUEST = 'with[0]=author&orders[0][column]=id&limit=3'

for (const db of testDatabases()) {
  describe(`the read state of an applied builder (${db.name})`, () => {
    it('the builder applyQueryParams returns carries its run and its keyset facts in one frozen value', () => {
      const state = readStateOf(applyQuery(db, 'posts', REQUEST, { timeout: 5000 }))
      expect(Object.isFrozen(state)).to.equal(true)
      expect(Object.keys(state).sort()).to.deep.equal(['run', 'seek'])
      expect(state.run?.options.timeout).to.equal(5000)
      expect(state.seek?.table).to.equal('posts')
    })

    it('.transacting(trx) keeps it: a paginate inside the transaction reads the page with its relations', async () => {
      await db.knex.transaction(async (trx) => {
        const query = applyQuery(db, 'posts', REQUEST)
        const inside = query.transacting(trx)
        expect(readStateOf(inside)).to.equal(readStateOf(query))
        const page = await paginate(inside, {}, { queries: 'sequential' })
        expect(idsOf(page.data)).to.deep.equal([1, 2, 3])
        expect(page.data[0]).to.have.property('author').that.has.property('id')
      })
    })

    it('a copy has none of it: .clone() and statementCopy() start empty; cloneWithEagerLoading is given only the run', async () => {
      const query = applyQuery(db, 'posts', REQUEST)
      expect(readStateOf(query.clone())).to.deep.equal({})
      expect(readStateOf(statementCopy(query))).to.deep.equal({})
      const clone = cloneWithEagerLoading(query)
      expect(Object.keys(readStateOf(clone))).to.deep.equal(['run'])
      expect(readStateOf(clone).run).to.equal(readStateOf(query).run)
      const rows = await clone
      expect(idsOf(rows)).to.deep.equal([1, 2, 3])
    })

    it("a read's form is set on the read's copy, never on the builder read", () => {
      const query = applyQuery(db, 'posts', REQUEST)
      const before = readStateOf(query)
      const copy = statementCopy(query)
      readInForm(copy, 'walk')
      expect(readStateOf(copy)).to.deep.equal({ form: 'walk' })
      expect(readStateOf(query)).to.equal(before)
      expect(readStateOf(query).form).to.equal(undefined)
    })
  })
}
