import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/** 1,500 entries keyed by (list_id, item_id); positions repeat, so an order by position has ties. */
const map = defineRelationMap({
  deep_entries: {
    primaryKey: ['list_id', 'item_id'],
    columns: {
      list_id: 'integer',
      item_id: 'integer',
      position: { type: 'integer', nullable: false },
      label: { type: 'string', column: 'Label', nullable: false },
    },
  },
})

const ROWS = Array.from({ length: 1_500 }, (_, index) => ({
  list_id: index % 7,
  item_id: index,
  position: (index * 37) % 100,
  Label: `entry ${index}`,
}))

for (const db of testDatabases()) {
  const deferring = db.name !== 'postgres'

  describe(`deferred pages on a composite primary key with an aliased column (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (request: string): Knex.QueryBuilder =>
      applyQueryParams(db.knex('deep_entries'), parseQueryParams(request), map)

    before(async () => {
      await db.knex.schema.dropTableIfExists('deep_entries')
      await db.knex.schema.createTable('deep_entries', (table) => {
        table.integer('list_id').notNullable()
        table.integer('item_id').notNullable()
        table.integer('position').notNullable()
        table.string('Label').notNullable()
        table.primary(['list_id', 'item_id'])
        table.index(['position', 'list_id', 'item_id'])
      })
      for (let start = 0; start < ROWS.length; start += 250)
        await db.knex('deep_entries').insert(ROWS.slice(start, start + 250))
    })

    after(async () => {
      await db.knex.schema.dropTableIfExists('deep_entries')
    })

    it(`${deferring ? 'joins the page back on every key column' : 'keeps the plain offset'} and returns the plain query's rows under client names`, async () => {
      const query = apply(
        'orders[0][column]=position&orders[0][direction]=desc&columns[0]=item_id&columns[1]=label&limit=15&offset=1200',
      )
      expectSql(db.name, 'apply/page-rewrites/composite key with alias', query)
      const sql = query.toSQL().sql
      expect(sql.includes('kqp_page')).to.equal(deferring)
      if (deferring) expect(sql).to.match(/kqp_key_0.*kqp_key_1/)
      const rows = rowsOf(await query)
      expect(rows).to.have.length(15)
      expect(rows).to.deep.equal(rowsOf(await query.clone()))
      expect(Object.keys(rows[0] ?? {})).to.deep.equal(['item_id', 'label'])
      const expected = [...ROWS]
        .sort((a, b) => b.position - a.position || b.list_id - a.list_id || b.item_id - a.item_id)
        .slice(1200, 1215)
        .map((row) => ({ item_id: row.item_id, label: row.Label }))
      expect(rows.map((row) => ({ item_id: Number(row.item_id), label: row.label }))).to.deep.equal(expected)
    })
  })
}
