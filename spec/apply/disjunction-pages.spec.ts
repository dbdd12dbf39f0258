import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, countQuery, cursorPaginate, paginate, parseQueryParams } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { createPageDataSet, dropPageDataSet, guardedPageMap, pageMap } from './support/page-data-set.ts'

/**
 * A page whose client wheres hold a top-level `or` with a relation filter in a branch is read as the `union` of its
 * branches' keys (each branch ordered and limited to offset + limit), then its rows by key: on a data set of 3,000
 * posts, every such page returns exactly the rows of the plain query (its `.clone()`, which knex compiles without
 * the rewrite), in the same order, whatever the order (through a join, NULLs, ties), the page, the guards and the
 * caller's own conditions.
 */

/**
 * Posts tagged `tag 1`, or of kind `note` or `review` (1,750 posts): every twelfth post, a `note` with `tag 1`,
 * matches both branches. An `in` list: `tags.name = tag 1` (a unique column) would be written key first, and such a
 * page gets a frequency guard where one applies.
 */
const TAG_OR_KIND =
  'wheres[0][column]=tags.name&wheres[0][operator]=in&wheres[0][value][0]=tag 1&wheres[1][boolean]=or&wheres[1][column]=kind&wheres[1][operator]=in&wheres[1][value][0]=note&wheres[1][value][1]=review'
/** `a or (b and c)`: a nested relation filter (`author.team.name`) and a column test joined by `and`. */
const NESTED =
  'wheres[0][column]=kind&wheres[0][value]=rare&wheres[1][boolean]=or&wheres[1][column]=author.team.name&wheres[1][operator]=in&wheres[1][value][0]=team 2&wheres[2][column]=title&wheres[2][operator]=like&wheres[2][value]=post 1%'

for (const db of testDatabases()) {
  describe(`disjunction pages (${db.name})`, function () {
    this.timeout(60_000)
    const apply = (request: string, map: RelationMap = pageMap, base = db.knex('pg_posts')): Knex.QueryBuilder =>
      applyQueryParams(base, parseQueryParams(request), map, { frequencyMemoMs: 0 })
    const unions = (query: Knex.QueryBuilder): boolean => query.toSQL().sql.includes('kqp_union')
    /** MariaDB and SQLite, whose order cutoff serves a page ordered through a required belongsTo instead. */
    const cutting = db.name === 'mysql' || db.name === 'sqlite'
    /**
     * An order through a required belongsTo (an inner join); where the order cutoff serves such a page instead,
     * through an optional one (a left join, NULLs first).
     */
    const JOINED = cutting ? 'editor.name' : 'author.name'
    /**
     * Runs the query and its plain `.clone()`: asserts that the query is the union of its branches (and the clone
     * is not), that what ran is the query's own SQL, and that both give the same rows, `size` of them; returns them.
     */
    const samePage = async (
      query: Knex.QueryBuilder,
      size: number,
      form: 'union' | 'joined' = 'union',
    ): Promise<Array<Record<string, unknown>>> => {
      const placeholders = (sql: string): string => sql.replace(/\$\d+/g, '?')
      const compiled = query.toSQL().sql
      if (form === 'union') expect(compiled).to.match(/ union select \* from /)
      else expect(compiled).to.match(/ inner join `pg_users` as `pg_users_2` on .* inner join `pg_teams` on /)
      expect(compiled).not.to.include(form === 'union' ? 'union all' : 'kqp_union')
      expect(unions(query.clone()), 'the plain clone carries the rewrite').to.equal(false)
      const ran = await countQueries(db.knex, async () => rowsOf(await query))
      expect(ran.queries.map((statement) => placeholders(statement.sql))).to.deep.equal([placeholders(compiled)])
      expect(ran.result).to.have.length(size)
      expect(ran.result).to.deep.equal(rowsOf(await query.clone()))
      return ran.result
    }

    before(async () => {
      await createPageDataSet(db.knex)
    })

    after(async () => {
      await dropPageDataSet(db.knex)
    })

    it('reads a top-level or with a to-many filter as the union of its branches, each ordered and limited', async () => {
      const query = apply(`${TAG_OR_KIND}&orders[0][column]=${JOINED}&orders[0][direction]=desc&limit=20&page=3`)
      expectSql(db.name, 'apply/disjunction-pages/tag or kind by author name', query)
      const { sql } = query.toSQL()
      expect(sql.match(/ as .kqp_branch_\d+./g)).to.have.length(2)
      expect(sql.match(/ limit /g)?.length, 'each branch is limited, then the page').to.be.at.least(3)
      await samePage(query, 20)
    })

    it('keeps the rows of rows matching two branches once (a union, not a union all)', async () => {
      const both = rowsOf(
        await db
          .knex('pg_posts')
          .where('kind', 'note')
          .whereIn('id', db.knex('pg_post_tag').select('post_id').where('tag_id', 1)),
      )
      expect(both.length, 'posts in both branches').to.be.greaterThan(20)
      const query = apply(`${TAG_OR_KIND}&orders[0][column]=id&limit=50&page=2`)
      const rows = await samePage(query, 50)
      expect(new Set(rows.map((row) => row.id)).size).to.equal(50)
    })

    it('gives the rows of the plain query ordered through a join, ascending and descending, with ties, on every page', async function () {
      this.timeout(240_000)
      for (const direction of ['asc', 'desc'])
        for (const request of [TAG_OR_KIND, NESTED]) {
          const expected = Number(rowsOf(await countQuery(apply(`${request}&limit=10`)))[0]?.total)
          expect(expected).to.be.greaterThan(20)
          for (const page of [1, 2, 5, Math.ceil(expected / 17)]) {
            const query = apply(
              `${request}&orders[0][column]=${JOINED}&orders[0][direction]=${direction}&limit=17&page=${page}`,
            )
            // MariaDB joins the hops of `author.team.name` and reads the `or` on the joined rows (`joinFilterHops`).
            const form = db.name === 'mysql' && request === NESTED ? 'joined' : 'union'
            await samePage(query, Math.min(17, expected - 17 * (page - 1)), form)
          }
        }
    })

    it('orders NULLs as the plain query does (an optional belongsTo, a left join)', async () => {
      for (const direction of ['asc', 'desc'])
        for (const page of [1, 4, 9]) {
          const query = apply(
            `${TAG_OR_KIND}&orders[0][column]=editor.name&orders[0][direction]=${direction}&orders[1][column]=created_at&limit=20&page=${page}`,
          )
          await samePage(query, 20)
        }
    })

    it('reads a deep page (offset 1,100, past every deferred-page offset) from the union', async () => {
      const query = apply(`${TAG_OR_KIND}&orders[0][column]=created_at&orders[0][direction]=desc&limit=20&offset=1100`)
      expectSql(db.name, 'apply/disjunction-pages/deep page', query)
      expect(query.toSQL().sql.match(/kqp_page/g)?.length).to.be.at.least(2)
      await samePage(query, 20)
    })

    it("keeps the table's guard and the caller's later where on every branch", async () => {
      const request = `${NESTED}&orders[0][column]=author.name&limit=20&page=2`
      const query = apply(request, guardedPageMap).where('pg_posts.id', '>', 100)
      expectSql(db.name, 'apply/disjunction-pages/guarded with a caller where', query)
      const { sql } = query.toSQL()
      const branches = sql.split(' union ')
      expect(branches).to.have.length(2)
      for (const branch of branches) {
        expect(branch).to.match(/\(not .kind. = \?\)/)
        expect(branch).to.match(/.pg_posts.\..id. > \?/)
      }
      const rows = await samePage(query, 20)
      expect(rows.every((row) => row.kind !== 'draft' && Number(row.id) > 100)).to.equal(true)
      const unguarded = rowsOf(await apply(request).where('pg_posts.id', '>', 100).clone())
      expect(rows).not.to.deep.equal(unguarded)
    })

    it('keeps the plain query for the count, paginate and clones, and reads the same page through paginate', async () => {
      const request = `${TAG_OR_KIND}&orders[0][column]=${JOINED}&limit=20&page=4`
      const query = apply(request)
      expect(unions(query)).to.equal(true)
      const counted = countQuery(query)
      expect(counted.toSQL().sql).not.to.include('kqp_union')
      const total = Number(rowsOf(await counted)[0]?.total)
      const { result } = await countQueries(db.knex, () => paginate(apply(request), { page: 4, limit: 20 }))
      expect(result.meta).to.include({ total })
      expect(result.data).to.deep.equal(rowsOf(await query.clone()))
    })

    it('loads the with relations into the rows of the plain query', async () => {
      const query = apply(`${TAG_OR_KIND}&orders[0][column]=${JOINED}&with[0]=author&with[1]=tags&limit=20&page=3`)
      expect(unions(query)).to.equal(true)
      const rows = rowsOf(await query) as Array<Record<string, unknown> & { author?: { id: number }; tags?: unknown[] }>
      expect(unions(query.clone())).to.equal(false)
      const plain = rowsOf(await query.clone())
      expect(rows).to.deep.equal(plain)
      for (const row of rows) {
        expect(row.author?.id).to.equal(row.user_id)
        expect(row.tags).to.have.length(2)
      }
    })

    it('cursorPaginate: a page after a cursor is the union, the position on every branch; a page before one, plain', async () => {
      const request = `${TAG_OR_KIND}&orders[0][column]=created_at&orders[0][direction]=desc&limit=17`
      const secret = 'a secret of at least thirty-two bytes'
      const read = async (cursor: string | undefined) => {
        const params = parseQueryParams(cursor === undefined ? request : `${request}&cursor=${cursor}`)
        return countQueries(db.knex, () =>
          cursorPaginate(applyQueryParams(db.knex('pg_posts'), params, pageMap), params, { secret }),
        )
      }
      let cursor: string | undefined
      let prev: string | null = null
      for (let page = 1; page <= 4; page++) {
        const { result, queries } = await read(cursor)
        expect(queries.map((statement) => statement.sql.includes('kqp_union'))).to.deep.equal([true])
        expect(rowsOf(result.data)).to.deep.equal(rowsOf(await apply(`${request}&page=${page}`).clone()))
        cursor = result.meta.next_cursor ?? undefined
        prev = result.meta.prev_cursor
      }
      const before = await read(prev ?? undefined)
      expect(before.queries.some((statement) => statement.sql.includes('kqp_union'))).to.equal(false)
      expect(rowsOf(before.result.data)).to.deep.equal(rowsOf(await apply(`${request}&page=3`).clone()))
    })

    it('SQLite keeps one order cutoff over the or; MariaDB cuts off or lists each branch on its own', () => {
      const cut = apply(`${TAG_OR_KIND}&orders[0][column]=author.name&limit=20&page=2`)
      expect(unions(cut)).to.equal(db.name !== 'sqlite')
      if (cutting) expect(cut.toSQL().sql).to.include('coalesce(')
      expect(cut.toSQL().sql.match(/kqp_cut\W/g)?.length ?? 0, 'one cut form per branch').to.equal(
        db.name === 'mysql' ? 2 : 0,
      )
    })

    if (db.name === 'mysql')
      it('MariaDB: each cut-off branch gives the rows of the plain query, its probe tested within the one statement, on every page', async function () {
        this.timeout(240_000)
        for (const direction of ['asc', 'desc'])
          for (const request of [TAG_OR_KIND, NESTED]) {
            const expected = Number(rowsOf(await countQuery(apply(`${request}&limit=10`)))[0]?.total)
            for (const page of [1, 2, 5, Math.ceil(expected / 17)]) {
              const query = apply(
                `${request}&orders[0][column]=author.name&orders[0][direction]=${direction}&orders[1][column]=title&limit=17&page=${page}`,
              )
              const compiled = query.toSQL().sql
              expect(compiled.match(/kqp_listed\W/g)).to.have.length(2)
              const ran = await countQueries(db.knex, async () => rowsOf(await query))
              expect(ran.queries.map((statement) => statement.sql)).to.deep.equal([compiled])
              expect(ran.result).to.have.length(Math.min(17, expected - 17 * (page - 1)))
              expect(ran.result, `${request}, ${direction}, page ${page}`).to.deep.equal(rowsOf(await query.clone()))
            }
          }
      })

    it('leaves other pages as they are: an or of column tests, no or, no order, distinct, no limit', () => {
      const plain = [
        'wheres[0][column]=kind&wheres[0][value]=rare&wheres[1][boolean]=or&wheres[1][column]=title&wheres[1][value]=post 7&orders[0][column]=id&limit=20&page=2',
        'wheres[0][column]=tags.name&wheres[0][value]=tag 1&wheres[1][column]=kind&wheres[1][value]=review&orders[0][column]=id&limit=20&page=2',
        `${TAG_OR_KIND}&distinct[0]=title&orders[0][column]=title&limit=20&page=2`,
      ]
      for (const request of plain) expect(unions(apply(request)), request).to.equal(false)
      expect(unions(apply(`${TAG_OR_KIND}&orders[0][column]=id`))).to.equal(false)
    })

    it('keeps the plain query when the caller clears the orders or the conditions', () => {
      const request = `${TAG_OR_KIND}&orders[0][column]=id&limit=20&page=2`
      expect(unions(apply(request))).to.equal(true)
      expect(unions(apply(request).clearOrder().orderBy('id'))).to.equal(false)
      expect(unions(apply(request).clearWhere())).to.equal(false)
    })
  })
}
