import { expect } from 'chai'
import fc from 'fast-check'
import type { Knex } from 'knex'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, parseQueryParams } from '../../lib/index.ts'
import { rowsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { fuzzSettings } from '../reliability/support/fuzz-settings.ts'
import { validCase } from '../reliability/support/valid-case-arbitrary.ts'

const TENANT = 1
const tenantPosts = demoData.posts.filter((post) => post.user_id === TENANT)
const tenantPostIds = tenantPosts.map((post) => post.id)
const OR_EVERYTHING = 'wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=0&wheres[0][boolean]=or'

/** The caller's tenant scoping, as an API would write it. */
const scoped = (db: TestDatabase): Knex.QueryBuilder => db.knex('posts').where('posts.user_id', TENANT)

async function tenantRows(db: TestDatabase, query: string, base = scoped(db)): Promise<Array<Record<string, unknown>>> {
  const rows = rowsOf(await applyQueryParams(base, parseQueryParams(query), relationMap))
  for (const row of rows) expect(Number(row.user_id), `row ${String(row.id)} escaped the tenant`).to.equal(TENANT)
  return rows
}

const ids = (rows: ReadonlyArray<Record<string, unknown>>): number[] =>
  rows.map((row) => Number(row.id)).sort((a, b) => a - b)

for (const db of testDatabases()) {
  describe(`security: a client or never widens the caller's where (${db.name})`, () => {
    it('an or between plain wheres stays inside the tenant', async () => {
      const rows = await tenantRows(
        db,
        `wheres[0][column]=title&wheres[0][value]=nothing&${OR_EVERYTHING.replaceAll('[0]', '[1]')}`,
      )
      expect(ids(rows)).to.deep.equal(tenantPostIds)
    })

    it('an or on the first where (nothing before it to chain to) stays inside the tenant', async () => {
      expect(ids(await tenantRows(db, OR_EVERYTHING))).to.deep.equal(tenantPostIds)
    })

    it('an or through relation.column (correlated EXISTS) stays inside the tenant', async () => {
      const query =
        'wheres[0][column]=comments.body&wheres[0][operator]=like&wheres[0][value]=%25&wheres[0][boolean]=or' +
        '&wheres[1][column]=author.name&wheres[1][value]=Bob&wheres[1][boolean]=or' +
        '&wheres[2][column]=tags.name&wheres[2][operator]=like&wheres[2][value]=%25&wheres[2][boolean]=or'
      const withComments = new Set(demoData.comments.map((comment) => comment.post_id))
      const tagged = new Set(demoData.post_tag.map((link) => link.post_id))
      expect(ids(await tenantRows(db, query))).to.deep.equal(
        tenantPostIds.filter((id) => withComments.has(id) || tagged.has(id)),
      )
    })

    it('an or next to relationsExists stays inside the tenant', async () => {
      const withComments = new Set(demoData.comments.map((comment) => comment.post_id))
      const rows = await tenantRows(db, `relationsExists[0]=comments&${OR_EVERYTHING}`)
      expect(ids(rows)).to.deep.equal(tenantPostIds.filter((id) => withComments.has(id)))
    })

    it("a scope's bare orWhere (posts.popular) stays inside the tenant", async () => {
      const popular = tenantPosts.filter((post) => post.views > 100 || (post.rating ?? 0) >= 4.5).map((post) => post.id)
      expect(ids(await tenantRows(db, 'scopes[0]=popular'))).to.deep.equal(popular)
    })

    it('a scope, relationsExists and a client or together stay inside the tenant', async () => {
      const other = demoData.posts.find((post) => post.user_id !== TENANT)?.id ?? 0
      const rows = await tenantRows(
        db,
        `scopes[0]=popular&scopes[1]=published&relationsExists[0]=comments&wheres[0][column]=id&wheres[0][value]=${other}&wheres[0][boolean]=or`,
      )
      expect(ids(rows)).to.not.include(other)
    })

    it("the caller's own orWhere is grouped too: (tenant a or tenant b) and (client)", async () => {
      const base = db.knex('posts').where('posts.user_id', TENANT).orWhere('posts.user_id', 2)
      const outsider = demoData.posts.find((post) => post.user_id !== TENANT && post.user_id !== 2)?.id ?? 0
      const rows = rowsOf(
        await applyQueryParams(
          base,
          parseQueryParams(
            `wheres[0][column]=id&wheres[0][value]=${outsider}&wheres[0][boolean]=or&${OR_EVERYTHING.replaceAll('[0]', '[1]')}`,
          ),
          relationMap,
        ),
      )
      expect(rows.map((row) => Number(row.user_id)).every((user) => user === TENANT || user === 2)).to.equal(true)
      expect(ids(rows)).to.not.include(outsider)
    })

    it('paginate counts only the tenant rows', async () => {
      const params = parseQueryParams(`${OR_EVERYTHING}&page=1&limit=2`)
      const page = await paginate(applyQueryParams(scoped(db), params, relationMap), params)
      expect(page.meta.total).to.equal(tenantPostIds.length)
      expect(page.data.every((row) => Number((row as Record<string, unknown>).user_id) === TENANT)).to.equal(true)
    })

    const settings = fuzzSettings(150)
    it(`any valid client request (random, with or, relation paths, relationsExists, scopes) stays inside the tenant (seed ${settings.seed}, ${settings.numRuns} runs)`, async function () {
      this.timeout(60_000)
      await fc.assert(
        fc.asyncProperty(validCase('any', ['posts']), async ({ params, options }) => {
          const { columns: _columns, distinct: _distinct, ...filters } = params
          const wheres = filters.wheres?.map((where, index) =>
            index === 0 ? { ...where, boolean: 'or' as const } : where,
          )
          const rows = rowsOf(
            await applyQueryParams(
              scoped(db),
              wheres === undefined ? filters : { ...filters, wheres },
              relationMap,
              options,
            ),
          )
          for (const row of rows) expect(Number(row.user_id)).to.equal(TENANT)
        }),
        { seed: settings.seed, numRuns: settings.numRuns },
      )
    })
  })
}
