import { expect } from 'chai'
import { applyQuery, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'

const like = (column: string, pattern: string): string =>
  `wheres[0][column]=${column}&wheres[0][operator]=like&wheres[0][value]=${encodeURIComponent(pattern)}`

const sensitive = { like: 'sensitive' } as const

for (const db of testDatabases()) {
  describe(`wheres: like (${db.name})`, () => {
    it('is case-insensitive by default on every database', async () => {
      const query = applyQuery(db, 'posts', like('title', '%sql%'))
      expectSql(db.name, 'apply/like/insensitive', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3, 4, 5, 10, 20])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'SQL%')))).to.deep.equal([1, 2, 20])
      expect(sortedIdsOf(await applyQuery(db, 'users', like('email', '%example.com')))).to.deep.equal([
        1, 2, 4, 5, 6, 7, 8, 9, 10, 11,
      ])
    })

    it("is case-sensitive with options.like = 'sensitive'", async () => {
      const query = applyQuery(db, 'posts', like('title', '%SQL%'), sensitive)
      expectSql(db.name, 'apply/like/sensitive', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 3, 4, 5, 10, 20])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'sql%'), sensitive))).to.deep.equal([2])
      expect(sortedIdsOf(await applyQuery(db, 'users', like('email', '%example.com'), sensitive))).to.deep.equal([
        2, 5, 6, 7, 8, 9, 10, 11,
      ])
    })

    it("treats the client's % and _ as wildcards", async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 's%s')))).to.deep.equal([1, 2])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'sql_basics')))).to.deep.equal([2])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '%_%')))).to.have.length(24)
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 's%s'), sensitive))).to.deep.equal([2])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'sql_basics'), sensitive))).to.deep.equal([2])
    })

    it('matches a pattern without wildcards as the whole value', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'sql')))).to.deep.equal([])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'sql tips')))).to.deep.equal([1])
    })

    it('lets a backslash escape a wildcard on every database (\\% is a literal %, \\_ a literal _)', async () => {
      const query = applyQuery(db, 'posts', like('title', '%\\_%'))
      expectSql(db.name, 'apply/like/escaped underscore', query)
      expect(sortedIdsOf(await query)).to.deep.equal([7, 15, 16])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '100\\%%')))).to.deep.equal([6])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '%\\%%')))).to.deep.equal([6, 15])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '%\\_%'), sensitive))).to.deep.equal([7, 15, 16])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '%\\%%'), sensitive))).to.deep.equal([6, 15])
    })

    it('matches a literal backslash as \\\\, and a trailing lone backslash as itself, never a database error', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('body', '%C:\\\\temp\\\\new\\_file%')))).to.deep.equal([16])
      expect(
        sortedIdsOf(await applyQuery(db, 'posts', like('body', '%C:\\\\temp\\\\new\\_file%'), sensitive)),
      ).to.deep.equal([16])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('body', '%\\')))).to.deep.equal([])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('body', '%\\'), sensitive))).to.deep.equal([])
    })

    it('matches GLOB specials literally in sensitive mode (* ? [ ])', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '%?'), sensitive))).to.deep.equal([13])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', '*%'), sensitive))).to.deep.equal([])
    })

    it('folds non-ASCII case on PostgreSQL and MySQL, but only ASCII on SQLite (dialect limit: SQLite LIKE folds ASCII only)', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'CAF%')))).to.deep.equal([14])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'café%')))).to.deep.equal([14])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'CAFÉ%')))).to.deep.equal(
        db.name === 'sqlite' ? [] : [14],
      )
    })

    it('is accent-sensitive on every database, as PostgreSQL ilike (cafe does not find Café)', async () => {
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'cafe%')))).to.deep.equal([])
      expect(sortedIdsOf(await applyQuery(db, 'posts', like('title', 'CAFE%')))).to.deep.equal([])
    })

    if (db.name === 'mysql')
      it('MySQL: the same rows whatever the column collation or character set (_bin, _ci, latin1)', async () => {
        await db.knex.schema.createTable('like_collations', (t) => {
          t.integer('id').primary()
          t.string('bin', 20).collate('utf8mb4_bin')
          t.string('ci', 20).collate('utf8mb4_general_ci')
          t.specificType('latin', 'varchar(20) character set latin1 collate latin1_swedish_ci')
        })
        try {
          const rows = ['Knex Tips', 'KNEX', 'knex', 'Café', 'cafe', 'Strasse'].map((text, index) => ({
            id: index + 1,
            bin: text,
            ci: text,
            latin: text,
          }))
          await db.knex('like_collations').insert(rows)
          const map = defineRelationMap({
            like_collations: { columns: { id: 'integer', bin: 'string', ci: 'string', latin: 'string' } },
          })
          const found = async (column: string, pattern: string): Promise<number[]> =>
            sortedIdsOf(
              await applyQueryParams(db.knex('like_collations'), parseQueryParams(like(column, pattern)), map),
            )
          for (const column of ['bin', 'ci', 'latin']) {
            expect(await found(column, '%knex%'), column).to.deep.equal([1, 2, 3])
            expect(await found(column, 'CAFÉ'), column).to.deep.equal([4])
            expect(await found(column, 'cafe'), column).to.deep.equal([5])
            expect(await found(column, 'stra_se'), column).to.deep.equal([6])
          }
        } finally {
          await db.knex.schema.dropTable('like_collations')
        }
      })

    it('is only for text columns (invalid_operator, allowed = the other operators)', () => {
      expectQueryParamsError(
        () => applyQuery(db, 'posts', 'wheres[1][column]=views&wheres[1][operator]=like&wheres[1][value]=1%25'),
        {
          code: 'invalid_operator',
          param: 'wheres[1][operator]',
          allowed: ['=', '!=', '<', '<=', '>', '>=', 'in', 'notIn', 'between', 'notBetween'],
        },
      )
    })
  })
}
