import { expect } from 'chai'
import type { Knex } from 'knex'
import type { Readable } from 'node:stream'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, loadRelations, paginate, parseQueryParams, type RelationMap } from '../../lib/index.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'

/** The demo map with `users.team_id` taken off the allow-list: `with[0]=team` selects it for matching only. */
const hiddenKeyMap: RelationMap = {
  ...relationMap,
  users: {
    ...relationMap.users,
    columns: Object.fromEntries(Object.entries(relationMap.users.columns).filter(([name]) => name !== 'team_id')),
  },
}

const REQUEST =
  'with[0]=team&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=4&orders[0][column]=id'

for (const db of testDatabases()) {
  describe(`every read path gives the same normalized rows, without keys kept for matching (${db.name})`, () => {
    const query = (options = {}): Knex.QueryBuilder =>
      applyQueryParams(db.knex('users'), parseQueryParams(REQUEST), hiddenKeyMap, options)
    const streamed = async (builder: Knex.QueryBuilder): Promise<unknown[]> => {
      const rows: unknown[] = []
      for await (const row of builder.stream() as Readable) rows.push(row)
      return rows
    }

    const expected = async (): Promise<Array<Record<string, unknown>>> => rowsOf(await query())

    it('await, .then, .clone() and paginate agree, and none carries team_id', async () => {
      const awaited = rowsOf(await query())
      expect(
        awaited.map((row) => [row.id, row.created_at, (row.team as { id: number } | null)?.id ?? null]),
      ).to.deep.equal([
        [1, '2021-02-01T10:00:00.000Z', 2],
        [4, '2021-06-15T17:45:00.000Z', null],
      ])
      for (const row of awaited) expect(row).not.to.have.property('team_id')
      expect(await new Promise((resolve, reject) => void query().then(resolve, reject))).to.deep.equal(awaited)
      expect(await query().clone()).to.deep.equal(awaited)
      expect(await query().clone().clone()).to.deep.equal(awaited)
      expect((await paginate(query(), { page: 1, limit: 10 })).data).to.deep.equal(awaited)
    })

    // knex streams from pg only with pg-query-stream, which the suite does not install.
    if (db.name !== 'postgres') {
      it('.stream() and the stream of a .clone() give the same rows, without team_id', async () => {
        const awaited = await expected()
        expect(awaited).to.have.length(2)
        expect(await streamed(query())).to.deep.equal(awaited)
        expect(await streamed(query().clone())).to.deep.equal(awaited)
      })
    }

    if (db.name !== 'postgres') {
      it('.stream() with eager loading over more rows than a batch finishes without a second connection (SQLite has one)', async function () {
        this.timeout(60_000)
        const map: RelationMap = {
          rp_parents: {
            columns: { id: 'integer', at: 'datetime' },
            relations: { kids: { type: 'hasMany', table: 'rp_kids', foreignKey: 'parent_id' } },
          },
          rp_kids: { columns: { id: 'integer', ok: 'boolean' } },
        }
        await db.knex.schema.createTable('rp_parents', (table) => {
          table.integer('id').primary()
          table.datetime('at')
        })
        await db.knex.schema.createTable('rp_kids', (table) => {
          table.integer('id').primary()
          table.integer('parent_id')
          table.boolean('ok')
        })
        try {
          const ids = Array.from({ length: 2500 }, (_, index) => index + 1)
          for (let start = 0; start < ids.length; start += 500) {
            const slice = ids.slice(start, start + 500)
            await db.knex('rp_parents').insert(slice.map((id) => ({ id, at: '2024-03-01 12:00:00' })))
            await db.knex('rp_kids').insert(slice.map((id) => ({ id, parent_id: id, ok: id % 2 === 0 })))
          }
          const rows = await streamed(
            applyQueryParams(db.knex('rp_parents'), parseQueryParams('with[0]=kids&orders[0][column]=id'), map),
          )
          expect(rows).to.have.length(2500)
          expect(rows[2499]).to.deep.equal({ id: 2500, at: '2024-03-01T12:00:00.000Z', kids: [{ id: 2500, ok: true }] })
        } finally {
          await db.knex.schema.dropTableIfExists('rp_kids')
          await db.knex.schema.dropTableIfExists('rp_parents')
        }
      })
    }

    it("values: 'driver' keeps the driver's values (and still strips the matching key)", async () => {
      const [row] = rowsOf(await query({ values: 'driver' }))
      expect(row).not.to.have.property('team_id')
      const json = rowsOf(await query())[0]
      expect(json?.is_admin).to.equal(true)
      if (db.name === 'sqlite') {
        expect(row?.is_admin).to.equal(1)
        expect(row?.created_at).to.equal('2021-02-01 10:00:00')
      } else {
        expect(row?.created_at).to.be.instanceOf(Date)
      }
    })

    it('columns the caller selects beyond the map are left as the driver gives them; aggregates stay numbers', async () => {
      const base = db
        .knex('users')
        .select(
          'users.id',
          'users.created_at',
          db.knex.raw('1 as one'),
          db.knex.raw("'2024-01-01 00:00:00' as own_time"),
        )
      const [row] = rowsOf(
        await applyQueryParams(base, parseQueryParams('wheres[0][column]=id&wheres[0][value]=1'), hiddenKeyMap),
      )
      expect(row).to.deep.include({ id: 1, created_at: '2021-02-01T10:00:00.000Z', own_time: '2024-01-01 00:00:00' })
      expect(Number(row?.one)).to.equal(1)
      const counted = await applyQueryParams(
        db.knex('users'),
        parseQueryParams('wheres[0][column]=id&wheres[0][value]=1'),
        hiddenKeyMap,
      )
        .clearSelect()
        .count({ total: '*' })
      expect(Number((counted as Array<{ total: unknown }>)[0]?.total)).to.equal(1)
    })

    it('loadRelations normalizes your rows and the loaded ones (unless values: driver)', async () => {
      const users = await db.knex('users').select('id', 'team_id', 'is_admin').where('id', 1)
      const [loaded] = await loadRelations(db.knex, 'users', users, ['team'], relationMap)
      expect(loaded?.is_admin).to.equal(true)
      expect((loaded?.team as { created_at?: unknown } | null)?.created_at).to.equal('2021-03-22T14:30:00.000Z')
      const raw = await db.knex('users').select('id', 'team_id', 'is_admin').where('id', 1)
      const [driver] = await loadRelations(db.knex, 'users', raw, ['team'], relationMap, { values: 'driver' })
      expect(typeof (driver?.team as { created_at?: unknown } | null)?.created_at === 'string').to.equal(
        db.name === 'sqlite',
      )
    })
  })
}
