import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabaseName } from '../support/databases.ts'

/** Past V8's argument limit (about 120,000 with the default stack), where `push(...rows)` threw a RangeError. */
const CHILDREN = 200_000

const map = defineRelationMap({
  kqp_mem_parents: {
    columns: { id: 'integer' },
    relations: { children: { type: 'hasMany', table: 'kqp_mem_children', foreignKey: 'parent_id' } },
  },
  kqp_mem_children: { columns: { id: 'integer', parent_id: 'integer' } },
})

/** `CHILDREN` rows in one set-based statement: children 1..N, all of parent 1 but the last, of parent 2. */
function childrenSql(name: TestDatabaseName): string {
  const select = `select g, case when g = ${CHILDREN} then 2 else 1 end`
  if (name === 'postgres')
    return `insert into kqp_mem_children (id, parent_id) ${select} from generate_series(1, ${CHILDREN}) as s(g)`
  if (name === 'mysql')
    return `insert into kqp_mem_children (id, parent_id) ${select} from (select seq as g from seq_1_to_${CHILDREN}) as s`
  return `insert into kqp_mem_children (id, parent_id) with recursive s(g) as (select 1 union all select g + 1 from s where g < ${CHILDREN}) ${select} from s`
}

async function dropTables(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('kqp_mem_children')
  await knex.schema.dropTableIfExists('kqp_mem_parents')
}

for (const db of testDatabases()) {
  describe(`eager loading past V8's argument limit (${db.name})`, function () {
    this.timeout(120_000)

    before(async () => {
      await dropTables(db.knex)
      await db.knex.schema.createTable('kqp_mem_parents', (table) => table.integer('id').primary())
      await db.knex.schema.createTable('kqp_mem_children', (table) => {
        table.integer('id').primary()
        table.integer('parent_id').notNullable().index()
      })
      await db.knex('kqp_mem_parents').insert([{ id: 1 }, { id: 2 }, { id: 3 }])
      await db.knex.raw(childrenSql(db.name))
    })

    after(() => dropTables(db.knex))

    it(`loads ${CHILDREN.toLocaleString('en')} related rows of one parent in one query, without a RangeError, with a raised budget`, async () => {
      const parents = await db.knex('kqp_mem_parents').select('id').orderBy('id')
      const loaded = await loadRelations(db.knex, 'kqp_mem_parents', parents, ['children'], map, {
        maxEagerRows: CHILDREN,
      })
      const children = rowsOf(loaded[0]?.children)
      expect(children).to.have.length(CHILDREN - 1)
      expect(Number(children[0]?.id)).to.equal(1)
      expect(Number(children.at(-1)?.id)).to.equal(CHILDREN - 1)
      expect(rowsOf(loaded[1]?.children).map((child) => Number(child.id))).to.deep.equal([CHILDREN])
      expect(loaded[2]?.children).to.deep.equal([])
    })

    it('with the default budget, the same request is limit_exceeded after at most 10,001 rows', async () => {
      let error: unknown
      try {
        await applyQueryParams(db.knex('kqp_mem_parents'), parseQueryParams('with[0]=children'), map)
      } catch (caught) {
        error = caught
      }
      expect(error).to.have.property('code', 'limit_exceeded')
      expect(error).to.have.property('param', 'with[0]')
    })
  })
}
