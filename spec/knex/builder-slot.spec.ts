import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { statementCopy } from '../../lib/knex/builder-methods.ts'
import { BuilderSlot } from '../../lib/knex/builder-slot.ts'

/** The one rule of `BuilderSlot` (the read state of a builder is held in one): what keeps a value, what does not. */
describe('BuilderSlot: a value belongs to the builder it was set on', () => {
  const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
  after(() => db.destroy())

  const tagged = (): { slot: BuilderSlot<{ tag: string }>; query: Knex.QueryBuilder } => {
    const slot = new BuilderSlot<{ tag: string }>()
    const query = db('posts').where('id', 1)
    slot.set(query, { tag: 'set' })
    return { slot, query }
  }

  it('the chained calls (where, limit, timeout, connection options) return the same builder, which keeps it', () => {
    const { slot, query } = tagged()
    expect(slot.of(query.limit(2).timeout(1000).orderBy('id'))).to.deep.equal({ tag: 'set' })
  })

  it('.transacting(trx) keeps it, and a read inside the transaction sees it', async () => {
    const { slot, query } = tagged()
    await db.transaction(async (trx) => {
      const inside = query.transacting(trx)
      expect(inside).to.equal(query)
      expect(slot.of(inside)).to.deep.equal({ tag: 'set' })
    })
  })

  it('neither .clone() nor statementCopy() copies it', () => {
    const { slot, query } = tagged()
    expect(slot.of(query.clone())).to.equal(undefined)
    expect(slot.of(statementCopy(query))).to.equal(undefined)
  })

  it('the value is frozen and set replaces it whole', () => {
    const { slot, query } = tagged()
    const value = slot.of(query)
    expect(Object.isFrozen(value)).to.equal(true)
    slot.set(query, { tag: 'again' })
    expect(slot.of(query)).to.deep.equal({ tag: 'again' })
    expect(value).to.deep.equal({ tag: 'set' })
  })

  it('two slots never see each other', () => {
    const { query } = tagged()
    expect(new BuilderSlot<{ tag: string }>().of(query)).to.equal(undefined)
  })
})
