import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { testDatabases } from '../support/databases.ts'
import { explainPlan } from '../plans/support/explain-plan.ts'
import { createFulltextIndex, dropFulltextIndex, POSTS_FULLTEXT } from './support/fulltext-index.ts'

const fulltextMap = defineRelationMap({ ...relationMap, posts: { ...relationMap.posts, search: POSTS_FULLTEXT } })
const ownContainsMap = defineRelationMap({
  ...relationMap,
  posts: { ...relationMap.posts, search: { columns: ['title', 'body', 'author.name'], mode: 'contains' } },
})

for (const db of testDatabases()) {
  describe(`search: plans (${db.name})`, () => {
    before(async () => createFulltextIndex(db))
    after(async () => dropFulltextIndex(db))

    // On 24 rows PostgreSQL prefers a sequential scan; with it priced out the plan shows whether the index can serve
    // the search at all, which is what an expression that differs from the index's (or another configuration) loses.
    it('reads the full-text index the docs create (PostgreSQL: the GIN expression index; MariaDB: FULLTEXT; SQLite: the FTS5 table)', async () => {
      await db.knex.transaction(async (trx) => {
        if (db.name === 'postgres') await trx.raw('set local enable_seqscan = off')
        const query = applyQueryParams(
          trx('posts'),
          parseQueryParams('search=knex%20tips&orders[0][column]=relevance&limit=5'),
          fulltextMap,
        )
        const plan = await explainPlan(trx, db.name, query)
        const expected = {
          postgres: 'Bitmap Index Scan (posts_search)',
          mysql: 'type=fulltext key=posts_search',
          sqlite: 'SCAN posts_fts VIRTUAL TABLE INDEX',
        }
        expect(plan.text).to.include(expected[db.name])
      })
    })

    if (db.name === 'sqlite')
      it('SQLite joins the FTS5 table and reads the page in its rowid order, stopping at the limit (no sort of every match)', async () => {
        const page = 'search=knex&wheres[0][column]=views&wheres[0][operator]=>&wheres[0][value]=0&limit=5'
        const byKey = await explainPlan(
          db.knex,
          db.name,
          applyQueryParams(
            db.knex('posts'),
            parseQueryParams(`${page}&orders[0][column]=id&orders[0][direction]=desc`),
            fulltextMap,
          ),
        )
        expect(byKey.lines[0]).to.match(/^SCAN posts_fts VIRTUAL TABLE INDEX /)
        expect(byKey.lines.slice(1)).to.deep.equal(['SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)'])
        const byRelevance = await explainPlan(
          db.knex,
          db.name,
          applyQueryParams(db.knex('posts'), parseQueryParams(`${page}&orders[0][column]=relevance`), fulltextMap),
        )
        expect(byRelevance.lines.slice(1)).to.deep.equal([
          'SEARCH posts USING INTEGER PRIMARY KEY (rowid=?)',
          'USE TEMP B-TREE FOR ORDER BY',
        ])
        expect(byRelevance.lines[0]).to.match(/^SCAN posts_fts VIRTUAL TABLE INDEX /)
        expect(byRelevance.text).not.to.include('CORRELATED')
      })

    if (db.name === 'postgres')
      it('a contains search reads the pg_trgm GIN indexes of its columns and the key list of a relation column, as one BitmapOr', async function () {
        if (db.engine !== 'postgres-server') this.skip() // skipped on PGlite, which loads pg_trgm only when constructed with it
        await db.knex
          .transaction(async (trx) => {
            await trx.raw('create extension if not exists pg_trgm')
            await trx.raw('create index posts_title_trgm on posts using gin (title gin_trgm_ops)')
            await trx.raw('create index posts_body_trgm on posts using gin (body gin_trgm_ops)')
            await trx.raw('create index users_name_trgm on users using gin (name gin_trgm_ops)')
            await trx.raw('set local enable_seqscan = off')
            const plan = await explainPlan(
              trx,
              db.name,
              applyQueryParams(trx('posts'), parseQueryParams('search=index'), ownContainsMap),
            )
            expect(plan.lines.map((line) => line.trim())).to.include.members([
              'BitmapOr',
              'Bitmap Index Scan (posts_title_trgm)',
              'Bitmap Index Scan (posts_body_trgm)',
              'Bitmap Index Scan (posts_user_id_index)',
              'Bitmap Index Scan (users_name_trgm)',
            ])
            await trx.rollback()
          })
          .catch((error: unknown) => {
            if (!(error instanceof Error && error.message.includes('Transaction rejected with non-error: undefined')))
              throw error
          })
      })
  })
}
