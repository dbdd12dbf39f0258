import { expect } from 'chai'
import { demoData } from '../fixtures/data.ts'
import { relationMap } from '../fixtures/relation-map.ts'
import { DEMO_TABLES, type DemoTable } from '../fixtures/tables.ts'
import { testDatabases } from './support/databases.ts'
import { normalizeRows, type DemoTableName } from './support/rows.ts'
import { expectSql } from './support/snapshot.ts'

const mappedTables = Object.keys(relationMap) as DemoTableName[]

const pick = (row: object, columns: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).filter(([column]) => columns.includes(column)))

const ids = (rows: ReadonlyArray<{ id: unknown }>): number[] => rows.map((row) => Number(row.id))

const columnTypes: Record<string, Record<string, string>> = {
  sqlite: { birthday: 'date', published_at: 'datetime' },
  postgres: { birthday: 'date', published_at: 'timestamp with time zone' },
  mysql: { birthday: 'date', published_at: 'datetime' },
}

for (const db of testDatabases()) {
  describe(`harness on ${db.label}`, () => {
    for (const table of DEMO_TABLES) {
      it(`seeds every ${table} row`, async () => {
        const [result] = await db.knex(table as DemoTable).count({ count: '*' })
        expect(Number(result?.count)).to.equal(demoData[table].length)
      })
    }

    for (const table of mappedTables) {
      it(`returns the allow-listed ${table} columns as the fixtures define them`, async () => {
        const columns = Object.keys(relationMap[table].columns)
        const rows = await db
          .knex(table)
          .select(columns.map((column) => `${table}.${column}`))
          .orderBy('id')
        const expected = demoData[table].map((row) => pick(row, columns))
        expect(normalizeRows(rows, table)).to.deep.equal(expected)
      })
    }

    it('stores users.password, which the relation map hides', async () => {
      expect(await db.knex.schema.hasColumn('users', 'password')).to.equal(true)
      expect(relationMap.users.columns).not.to.have.property('password')
      const row: { password?: string } | undefined = await db.knex('users').select('password').where('id', 1).first()
      expect(row?.password).to.equal(demoData.users[0]?.password)
    })

    it('stores dates and timestamps with the agreed column types', async () => {
      const info = await db.knex('users').columnInfo('birthday')
      const posts = await db.knex('posts').columnInfo('published_at')
      expect(info.type.toLowerCase()).to.equal(columnTypes[db.name]?.birthday)
      expect(posts.type.toLowerCase()).to.equal(columnTypes[db.name]?.published_at)
    })

    it('applies the relation map scopes on plain knex', async () => {
      const admins = db.knex('users').select('users.id').orderBy('users.id')
      relationMap.users.scopes.admins(admins)
      expect(ids(await admins)).to.deep.equal(ids(demoData.users.filter((user) => user.is_admin)))

      const published = db.knex('posts').select('posts.id').orderBy('posts.id')
      relationMap.posts.scopes.published(published)
      expect(ids(await published)).to.deep.equal(ids(demoData.posts.filter((post) => post.published)))

      const popular = db.knex('posts').select('posts.id').orderBy('posts.id')
      relationMap.posts.scopes.popular(popular)
      const isPopular = (post: { views: number; rating: number | null }): boolean =>
        post.views > 100 || (post.rating ?? 0) >= 4.5
      expect(ids(await popular)).to.deep.equal(ids(demoData.posts.filter(isPopular)))
    })

    it('matches the stored SQL snapshot of a query', () => {
      const query = db
        .knex('posts')
        .select('posts.id')
        .where('posts.published', true)
        .where('posts.published_at', '>=', new Date(Date.UTC(2022, 0, 1)))
        .orderBy('posts.id')
      expectSql(db.name, 'harness/published posts since 2022', query)
    })

    it('continues id sequences after the explicit fixture ids', async () => {
      const trx = await db.knex.transaction()
      try {
        await trx('tags').insert({ name: 'sequence-check' })
        const row: { id?: unknown } | undefined = await trx('tags').where('name', 'sequence-check').first('id')
        expect(Number(row?.id)).to.equal(demoData.tags.length + 1)
      } finally {
        await trx.rollback()
      }
    })
  })
}
