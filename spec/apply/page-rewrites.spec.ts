import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import { guardedFormStatements } from '../../lib/apply/page-rewrite.ts'
import { dialectOf } from '../../lib/dialect/dialect-of.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { idsOf, rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { createPageDataSet, dropPageDataSet, guardedPageMap, pageMap, PAGE_POSTS } from './support/page-data-set.ts'

/**
 * Page rewrites, on a data set of 3,000 posts: from an offset of 1,000 (SQLite) or 300 (MariaDB) a page is read as a
 * deferred join on the primary key (PostgreSQL keeps the plain offset), and on MariaDB a first order through
 * required belongsTo hops gets a cutoff condition. Every rewritten query returns the rows of the plain query
 * (its `.clone()`, which knex compiles without the rewrite), in the same order.
 */

const NEWEST = 'orders[0][column]=created_at&orders[0][direction]=desc'
/** An offset past the deferred-page offset of every dialect that defers. */
const DEEP = 1_100
const total = async (query: Knex.QueryBuilder): Promise<number> => Number(rowsOf(await countQuery(query))[0]?.total)

for (const db of testDatabases()) {
  const deferring = db.name !== 'postgres'
  const cutting = db.name === 'mysql' || db.name === 'sqlite'
  const deferFrom = dialectOf(db.knex.client).deferredPageOffset ?? DEEP

  describe(`page rewrites (${db.name})`, function () {
    this.timeout(60_000)
    // No memo of a probe's choice: each read below sends its probe, so the statements that ran are known.
    const apply = (request: string, map: RelationMap = pageMap, base = db.knex('pg_posts')): Knex.QueryBuilder =>
      applyQueryParams(base, parseQueryParams(request), map, { frequencyMemoMs: 0 })
    /**
     * Runs the query and its plain `.clone()`, asserts that what ran is the query's own (rewritten) SQL and the
     * clone's is not rewritten, and that both give the same rows; returns them.
     */
    const samePage = async (
      query: Knex.QueryBuilder,
      size = 20,
      form?: 'list' | 'walk',
    ): Promise<Array<Record<string, unknown>>> => {
      const placeholders = (sql: string): string => sql.replace(/\$\d+/g, '?')
      const forms = guardedFormStatements(query)
      expect(forms !== undefined, 'a probe chooses the form').to.equal(form !== undefined)
      const chosen = form === undefined || forms === undefined ? query.toSQL() : forms[form]
      const compiled = placeholders(chosen.sql)
      const plain = query.clone().toSQL().sql
      expect(/kqp_page|straight_join/.test(plain), 'the plain clone carries a rewrite').to.equal(false)
      const ran = await countQueries(db.knex, async () => rowsOf(await query))
      const statements = ran.queries.map((statement) => placeholders(statement.sql))
      if (form !== undefined) expect(statements.shift(), 'the probe').to.match(/ as kqp_frequent$/)
      expect(statements, 'the statement that ran').to.deep.equal([compiled])
      const rows = ran.result
      expect(rows).to.have.length(size)
      expect(rows).to.deep.equal(rowsOf(await query.clone()))
      return rows
    }

    before(async () => {
      await createPageDataSet(db.knex)
    })

    after(async () => {
      await dropPageDataSet(db.knex)
    })

    it(`a deep page (offset 1,180) ${deferring ? 'is a deferred join on the primary key' : 'keeps the plain offset'}, with the plain query's rows`, async () => {
      const query = apply(`${NEWEST}&limit=20&page=60`)
      expectSql(db.name, 'apply/page-rewrites/deep page', query)
      expect(query.toSQL().sql.includes('kqp_page')).to.equal(deferring)
      expect(query.clone().toSQL().sql).not.to.include('kqp_page')
      await samePage(query)
    })

    it('below the offset threshold the page stays a plain offset', async () => {
      const query = apply(`${NEWEST}&limit=20&offset=${deferFrom - 20}`)
      expect(query.toSQL().sql).to.equal(query.clone().toSQL().sql)
      await samePage(query)
    })

    it('keeps the where group, relation filters, row guards and the columns selection inside the deferred page', async () => {
      const request = `${NEWEST}&wheres[0][column]=kind&wheres[0][operator]=in&wheres[0][value][0]=note&wheres[0][value][1]=review&wheres[0][value][2]=news&wheres[1][column]=tags.name&wheres[1][operator]=in&wheres[1][value][0]=tag 1&wheres[1][value][1]=tag 2&wheres[1][value][2]=tag 3&wheres[1][value][3]=tag 4&wheres[1][value][4]=tag 5&wheres[1][value][5]=tag 6&wheres[1][value][6]=tag 7&wheres[1][value][7]=tag 8&wheres[2][column]=author.name&wheres[2][operator]=!=&wheres[2][value]=user 5&columns[0]=id&columns[1]=title&limit=20&offset=${DEEP}`
      const query = apply(request, guardedPageMap)
      expectSql(db.name, 'apply/page-rewrites/filters guards columns', query)
      const rows = await samePage(query)
      expect(Object.keys(rows[0] ?? {})).to.deep.equal(['id', 'title'])
      const unguarded = rowsOf(await apply(request).clone())
      expect(rows).not.to.deep.equal(unguarded)
    })

    it(`orders by a required belongsTo column on a deep page${cutting ? ' (MariaDB, SQLite: with its cutoff)' : ''}`, async () => {
      const query = apply(`orders[0][column]=author.name&limit=20&offset=${DEEP}`)
      expectSql(db.name, 'apply/page-rewrites/deep page by author name', query)
      expect(query.toSQL().sql.includes('kqp_page')).to.equal(deferring && !cutting)
      expect(query.toSQL().sql.includes('coalesce(')).to.equal(cutting)
      expect(query.toSQL().sql.includes('straight_join')).to.equal(db.name === 'mysql')
      await samePage(query)
    })

    it('orders by an optional belongsTo column (a left join, NULLs first) on a deep page: no cutoff, rows unchanged', async () => {
      const editorOrder = (offset: number): Knex.QueryBuilder =>
        apply(`orders[0][column]=editor.name&orders[0][direction]=asc&limit=20&offset=${offset}`)
      const boundary = editorOrder(PAGE_POSTS / 3 - 10)
      expect(boundary.toSQL().sql.includes('kqp_page')).to.equal(deferring && PAGE_POSTS / 3 - 10 >= deferFrom)
      const rows = await samePage(boundary)
      expect(rows.filter((row) => row.editor_id === null)).to.have.length(10)
      const deep = editorOrder(DEEP)
      expect(deep.toSQL().sql.includes('kqp_page')).to.equal(deferring)
      expect(deep.toSQL().sql).not.to.include('straight_join')
      await samePage(deep)
    })

    it('leaves out relationsExists through a required belongsTo to an unguarded table: the rows of an explicit exists', async () => {
      const request = 'orders[0][column]=id&orders[0][direction]=desc&limit=20&page=2'
      const held = apply(`relationsExists[0]=author&${request}`)
      expect(held.toSQL().sql).to.equal(apply(request).toSQL().sql)
      const explicit = db
        .knex('pg_posts')
        .whereExists(function () {
          this.select(db.knex.raw('1')).from('pg_users').whereRaw('pg_users.id = pg_posts.user_id')
        })
        .orderBy('id', 'desc')
        .limit(20)
        .offset(20)
      expect(idsOf(rowsOf(await held))).to.deep.equal(idsOf(rowsOf(await explicit)))
      const filtered = `wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=3&${request}`
      expect(apply(`relationsExists[0]=author&${filtered}`).toSQL().sql, 'beside a where too').to.equal(
        apply(filtered).toSQL().sql,
      )
      const guarded = apply(`relationsExists[0]=author&${request}`, guardedPageMap)
      expect(guarded.toSQL().sql, 'a guarded table keeps its test').to.match(/exists|is not null/)
    })

    it('a distinct page is never deferred: its offset counts distinct rows, not keys', async () => {
      const query = apply(`distinct[0]=title&limit=20&offset=${DEEP}`)
      expect(query.toSQL().sql).to.equal(query.clone().toSQL().sql)
      expect(query.toSQL().sql).not.to.include('kqp_page')
      await samePage(query)
    })

    it("leaves a page with a row lock, an aggregate or the caller's own join as it is", () => {
      const deep = `${NEWEST}&limit=20&offset=${DEEP}`
      const locked = apply(deep).forUpdate()
      const joined = apply(deep, pageMap, db.knex('pg_posts').join('pg_users', 'pg_users.id', 'pg_posts.user_id'))
      for (const query of db.name === 'sqlite' ? [joined] : [locked, joined])
        expect(query.toSQL().sql).to.equal(query.clone().toSQL().sql)
      const counted = apply(deep).clearSelect().count({ total: '*' })
      expect(counted.toSQL().sql).to.equal(counted.clone().toSQL().sql)
    })

    it('takes conditions the caller adds after applyQueryParams into the rewritten page', async () => {
      const query = apply(`${NEWEST}&limit=20&offset=${DEEP}`).whereNot('pg_posts.kind', 'draft')
      if (deferring) expect(query.toSQL().sql).to.match(/ from \(select .* where .*\) as .kqp_page. cross join /)
      await samePage(query)
    })

    it(".first() on a deep page gives the plain query's first row", async () => {
      const query = apply(`${NEWEST}&limit=20&offset=${DEEP}`)
      const plainFirst = rowsOf(await apply(`${NEWEST}&limit=1&offset=${DEEP}`).clone())[0]
      expect(plainFirst).not.to.equal(undefined)
      const ran = await countQueries(
        db.knex,
        async () => await (query.first() as unknown as Promise<Record<string, unknown>>),
      )
      expect(ran.queries).to.have.length(1)
      expect(ran.queries[0]?.sql.includes('kqp_page')).to.equal(deferring)
      expect(ran.result).to.deep.equal(plainFirst)
    })

    it('paginate: eager loading, the page and the exact count are those of the plain query', async () => {
      const request = `${NEWEST}&with[0]=author&with[1]=tags&limit=20&page=60`
      const { result, queries } = await countQueries(db.knex, () => paginate(apply(request), { page: 60, limit: 20 }))
      expect(queries).to.have.length(4)
      expect(result.meta).to.include({ total: PAGE_POSTS, current_page: 60, from: 1181, to: 1200 })
      const shallowQuery = applyQueryParams(
        db.knex('pg_posts'),
        parseQueryParams(`${NEWEST}&with[0]=author&with[1]=tags&limit=1200`),
        pageMap,
        { maxLimit: 1200 },
      )
      const shallow = rowsOf(await shallowQuery).slice(1180, 1200)
      expect(shallow).to.have.length(20)
      expect(result.data).to.deep.equal(shallow)
      const first = result.data[0] as { author?: { id: number }; tags?: unknown[]; user_id: number }
      expect(first.author?.id).to.equal(first.user_id)
      expect(first.tags).to.have.length(2)
    })

    it('countQuery of a deferred page counts every matching row', async () => {
      const query = apply(`${NEWEST}&wheres[0][column]=kind&wheres[0][value]=review&limit=20&offset=${DEEP}`)
      expect(await total(query)).to.equal(
        Number(rowsOf(await db.knex('pg_posts').where('kind', 'review').count({ total: '*' }))[0]?.total),
      )
    })

    describe('the cutoff of an order through joined hops', () => {
      it('keeps every row when the result is shorter than the page', async () => {
        const query = apply('orders[0][column]=author.name&wheres[0][column]=kind&wheres[0][value]=rare&limit=20')
        expect(query.toSQL().sql.includes('coalesce(')).to.equal(cutting)
        const rows = await samePage(query, 8, cutting ? 'list' : undefined)
        expect(rows.every((row) => row.kind === 'rare')).to.equal(true)
      })

      it('MariaDB and SQLite: conditions that hold fewer than 4 × (offset + limit) rows (at most 20,000) are read base table first and sorted; more, with the cutoff', async () => {
        const rare = apply('orders[0][column]=author.name&wheres[0][column]=kind&wheres[0][value]=rare&limit=5&page=2')
        const common = apply(
          'orders[0][column]=author.name&wheres[0][column]=kind&wheres[0][operator]=!%3D&wheres[0][value]=rare&limit=5&page=2',
        )
        const forms = guardedFormStatements(rare)
        expect(forms === undefined, 'only MariaDB and SQLite probe').to.equal(!cutting)
        if (forms === undefined) return
        expect(forms.list.sql).to.include(
          `from \`pg_posts\` ${db.name === 'mysql' ? 'straight_join' : 'cross join'} \`pg_users\` on`,
        )
        expect(forms.list.sql).not.to.include('coalesce(')
        expect(forms.walk.sql).to.equal(rare.toSQL().sql)
        expect(forms.walk.sql).to.include('coalesce(')
        const rareRows = await samePage(rare, 3, 'list')
        expect(rareRows.every((row) => row.kind === 'rare')).to.equal(true)
        const commonRows = await samePage(common, 5, 'walk')
        expect(commonRows.every((row) => row.kind !== 'rare')).to.equal(true)
        const noCondition = apply('orders[0][column]=author.name&limit=5&page=2')
        expect(guardedFormStatements(noCondition), 'every base row is in the join: no probe').to.equal(undefined)
      })

      it('keeps the ties with the last row of the page (names repeat across authors), ascending and descending', async () => {
        for (const direction of ['asc', 'desc']) {
          for (const page of [1, 2, 3, 7]) {
            const query = apply(`orders[0][column]=author.name&orders[0][direction]=${direction}&limit=17&page=${page}`)
            await samePage(query, 17)
          }
        }
      })

      it('applies the same filters and guards as the page (two hops, a guarded relation filter)', async function () {
        // Walks every page twice and compares each with the plain query, which sorts the whole join on MariaDB.
        this.timeout(240_000)
        const request =
          'orders[0][column]=author.team.name&orders[0][direction]=asc&orders[1][column]=title&wheres[0][column]=tags.name&wheres[0][operator]=in&wheres[0][value][0]=tag 2&wheres[0][value][1]=tag 3&wheres[1][column]=kind&wheres[1][operator]=in&wheres[1][value][0]=draft&wheres[1][value][1]=review&limit=10&page=2'
        const query = apply(request)
        expectSql(db.name, 'apply/page-rewrites/cutoff two hops with filters', query)
        const rows = await samePage(query, 10, cutting ? 'walk' : undefined)
        const guardedMap: RelationMap = { ...pageMap, pg_posts: guardedPageMap.pg_posts ?? pageMap.pg_posts }
        expect(apply(request, guardedMap).toSQL().sql.includes('coalesce(')).to.equal(cutting)
        expect(rows).to.have.length(10)
        const seen = { guarded: [] as Array<Record<string, unknown>>, unguarded: [] as Array<Record<string, unknown>> }
        for (const [map, list] of [
          [guardedMap, seen.guarded],
          [pageMap, seen.unguarded],
        ] as const) {
          for (let page = 1, rowCount = 10; rowCount === 10; page++) {
            const paged = apply(request.replace('page=2', `page=${page}`), map)
            const pageRows = rowsOf(await paged)
            expect(pageRows).to.deep.equal(rowsOf(await paged.clone()))
            list.push(...pageRows)
            rowCount = pageRows.length
          }
        }
        expect(seen.guarded.length).to.be.greaterThan(50)
        expect(seen.unguarded.some((row) => row.kind === 'draft')).to.equal(true)
        expect(seen.guarded.some((row) => row.kind === 'draft')).to.equal(false)
      })

      it('is not used through a guarded hop (a left join, whose value can be NULL)', () => {
        const query = apply('orders[0][column]=author.name&limit=20', guardedPageMap)
        expect(query.toSQL().sql).not.to.include('coalesce(')
      })
    })

    it('leaves ids unchanged on every page of a filtered, relation-ordered walk through the table', async () => {
      const seen: number[] = []
      for (let page = 1; page <= 30; page++)
        seen.push(
          ...idsOf(await apply(`orders[0][column]=author.name&orders[1][column]=created_at&limit=100&page=${page}`)),
        )
      expect(seen).to.have.length(PAGE_POSTS)
      expect(new Set(seen).size).to.equal(PAGE_POSTS)
    })
  })
}
