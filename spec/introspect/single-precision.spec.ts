import { expect } from 'chai'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import { introspectRelationMap } from '../../lib/introspect/introspect-relation-map.ts'
import { readSchema } from '../../lib/introspect/read-schema.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'

const SINGLE = { sqlite: undefined, postgres: 'real', mysql: 'float' } as const
const DOUBLE = { sqlite: 'real', postgres: 'double precision', mysql: 'double' } as const

for (const database of testDatabases()) {
  const single = SINGLE[database.name]
  describe(`single-precision columns in checkRelationMap and the generator (${database.label})`, function () {
    this.timeout(60_000)
    let fresh: TestDatabase
    const mapWith = (
      reading: RelationMap[string]['columns'][string],
      amount: RelationMap[string]['columns'][string],
    ): RelationMap => ({
      samples: { columns: { id: 'integer', reading, amount } },
    })

    before(async () => {
      fresh = await freshDatabase(database, 'precision')
      await fresh.knex.schema.createTable('samples', (table) => {
        table.increments('id')
        table.specificType('reading', single ?? DOUBLE.sqlite)
        table.specificType('amount', DOUBLE[database.name])
      })
    })

    after(async () => {
      await dropFreshDatabase(fresh)
    })

    if (single !== undefined) {
      it(`reads ${single} as single precision and double as double`, async () => {
        const [table] = (await readSchema(fresh.knex)).tables
        expect(table?.columns.map(({ name, type, precision }) => ({ name, type, precision }))).to.deep.equal([
          { name: 'id', type: 'integer', precision: undefined },
          { name: 'reading', type: 'number', precision: 'single' },
          { name: 'amount', type: 'number', precision: undefined },
        ])
      })

      it('the generator declares the single-precision column so', async () => {
        const map = await introspectRelationMap(fresh.knex)
        expect(map.samples?.columns).to.deep.equal({
          id: 'integer',
          reading: { type: 'number', precision: 'single' },
          amount: 'number',
        })
      })

      it('a single-precision column declared a plain number is a warning; declared single, nothing', async () => {
        const undeclared = await checkRelationMap(fresh.knex, mapWith('number', 'number'))
        expect(undeclared.map(({ kind, level, path }) => ({ kind, level, path }))).to.deep.equal([
          { kind: 'single_precision_undeclared', level: 'warning', path: 'samples.columns.reading' },
        ])
        expect(undeclared[0]?.message).to.equal(
          `samples.reading is ${single}, a single-precision float: declare { type: 'number', precision: 'single' } so values compare as it holds them`,
        )
        expect(
          await checkRelationMap(fresh.knex, mapWith({ type: 'number', precision: 'single' }, 'number')),
        ).to.deep.equal([])
      })
    }

    it('a double column declared single precision is an error: client values would be rounded', async () => {
      const problems = await checkRelationMap(
        fresh.knex,
        mapWith(single === undefined ? { type: 'number', precision: 'single' } : 'number', {
          type: 'number',
          precision: 'single',
        }),
      )
      const notStored = (path: string): object => ({ kind: 'single_precision_not_stored', level: 'error', path })
      const expected =
        single === undefined
          ? [notStored('samples.columns.reading'), notStored('samples.columns.amount')]
          : [
              { kind: 'single_precision_undeclared', level: 'warning', path: 'samples.columns.reading' },
              notStored('samples.columns.amount'),
            ]
      expect(problems.map(({ kind, level, path }) => ({ kind, level, path }))).to.deep.equal(expected)
    })
  })
}
