import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

const { posts } = demoData
type Row = Record<string, unknown>

const quote = (name: string, sql: string): string => (name === 'postgres' ? sql.replace(/`/g, '"') : sql)

for (const db of testDatabases()) {
  describe(`paginate on ${db.label}`, () => {
    const apply = (query: string) => applyQueryParams(db.knex('posts'), parseQueryParams(query), relationMap)

    it('runs the page (with eager loading) and one count of the filtered query without order, limit or offset', async () => {
      const params = parseQueryParams(
        'wheres[0][column]=published&wheres[0][operator]=%3D&wheres[0][value]=true&wheres[0][boolean]=and&with[0]=author&orders[0][column]=views&orders[0][direction]=desc&page=2&limit=3',
      )
      const builder = applyQueryParams(db.knex('posts'), params, relationMap)
      const { result, queries } = await countQueries(db.knex, () => paginate<Row>(builder, params))
      const published = posts.filter((p) => p.published).sort((a, b) => b.views - a.views || a.id - b.id)
      expect(result.data.map((row) => Number(row.id))).to.deep.equal(published.slice(3, 6).map((p) => p.id))
      for (const row of result.data) expect((row.author as Row).id).to.equal(row.user_id)
      expect(result.meta).to.deep.equal({
        current_page: 2,
        per_page: 3,
        total: published.length,
        last_page: Math.ceil(published.length / 3),
        from: 4,
        to: 6,
      })
      expect(queries).to.have.length(3)
      const counts = queries.filter((query) => /count\(\*\)/i.test(query.sql))
      expect(counts).to.have.length(1)
      expect(counts[0]?.sql).not.to.match(/order by|limit|offset|users/i)
    })

    it('counts with plain SQL, or through a subquery when distinct decides the rows', () => {
      const plain = countQuery(
        apply(
          'wheres[0][column]=user_id&wheres[0][operator]=%3D&wheres[0][value]=1&wheres[0][boolean]=and&orders[0][column]=id&orders[0][direction]=desc&limit=5&offset=5',
        ),
      )
      expect(plain.toSQL().sql).to.equal(
        quote(db.name, 'select count(*) as `total` from `posts` where (`posts`.`user_id` = ?)'),
      )
      const distinct = countQuery(
        apply('distinct[0]=user_id&orders[0][column]=user_id&orders[0][direction]=asc&page=2&limit=2'),
      )
      expect(distinct.toSQL().sql).to.equal(
        quote(
          db.name,
          'select count(*) as `total` from (select distinct `posts`.`user_id` from `posts`) as `paginated`',
        ),
      )
    })

    it('counts distinct rows', async () => {
      const authors = new Set(posts.map((p) => p.user_id)).size
      const page = await paginate(apply('distinct[0]=user_id&page=1&limit=4'), { page: 1, limit: 4 })
      expect(page.data).to.have.length(4)
      expect(page.meta).to.include({ total: authors, last_page: Math.ceil(authors / 4) })
    })

    it('counts grouped rows through a subquery', async () => {
      const grouped = db
        .knex('posts')
        .select('user_id')
        .count({ posts: '*' })
        .groupBy('user_id')
        .orderBy('user_id')
        .limit(3)
      const page = await paginate(grouped, { page: 1 })
      expect(page.data).to.have.length(3)
      expect(page.meta.total).to.equal(new Set(posts.map((p) => p.user_id)).size)
    })

    it('pages a builder without limit from { page, limit }, without changing it', async () => {
      const builder = db.knex('posts').select('id').orderBy('id')
      const before = builder.toString()
      const page = await paginate<{ id: number }>(builder, { page: 3, limit: 10 })
      expect(page.data.map((row) => Number(row.id))).to.deep.equal(posts.slice(20).map((p) => p.id))
      expect(page.meta).to.deep.equal({
        current_page: 3,
        per_page: 10,
        total: posts.length,
        last_page: 3,
        from: 21,
        to: posts.length,
      })
      expect(builder.toString()).to.equal(before)
    })

    it('keeps eager loading when it adds the limit itself', async () => {
      const builder = apply('with[0]=comments&columns[0]=id&orders[0][column]=id&orders[0][direction]=asc')
      const page = await paginate<Row>(builder, { page: 1, limit: 2 })
      expect(page.data.map((row) => row.id)).to.deep.equal([1, 2])
      expect(page.data[0]?.comments)
        .to.be.an('array')
        .with.length(demoData.comments.filter((c) => c.post_id === 1).length)
      expect(page.data[0]).to.have.all.keys('id', 'comments')
    })

    it('defaults: page 1 and 15 rows; from the offset when no page is given', async () => {
      const first = await paginate(db.knex('posts').select('id').orderBy('id'))
      expect(first.meta).to.deep.equal({
        current_page: 1,
        per_page: 15,
        total: posts.length,
        last_page: 2,
        from: 1,
        to: 15,
      })
      const offset = await paginate(apply('columns[0]=id&limit=5&offset=10'), {})
      expect(offset.meta).to.deep.equal({
        current_page: 3,
        per_page: 5,
        total: posts.length,
        last_page: 5,
        from: 11,
        to: 15,
      })
    })

    it('{ count: false } skips the count: no total, no last_page', async () => {
      const builder = apply('columns[0]=id&page=2&limit=5')
      const { result, queries } = await countQueries(db.knex, () =>
        paginate(builder, { page: 2, limit: 5 }, { count: false }),
      )
      expect(queries).to.have.length(1)
      expect(result.meta).to.deep.equal({ current_page: 2, per_page: 5, from: 6, to: 10 })
    })

    describe("{ count: 'estimated' }", () => {
      const request = 'wheres[0][column]=published&wheres[0][value]=true&orders[0][column]=id&page=1&limit=5'
      const published = posts.filter((p) => p.published).length

      it('is exact below the threshold, and says so', async () => {
        const { result, queries } = await countQueries(db.knex, () =>
          paginate(apply(request), { page: 1 }, { count: 'estimated' }),
        )
        expect(result.meta).to.include({ total: published, estimated: false, last_page: Math.ceil(published / 5) })
        expect(queries.filter((query) => /count\(\*\)/i.test(query.sql))).to.have.length(1)
        expect(queries.some((query) => /^explain/i.test(query.sql))).to.equal(db.name === 'postgres')
      })

      it(
        db.name === 'postgres'
          ? "takes the planner's estimate at or above the threshold, without counting"
          : 'counts exactly on a database without an estimate',
        async () => {
          if (db.name === 'postgres') await db.knex.raw('analyze posts')
          const { result, queries } = await countQueries(db.knex, () =>
            paginate(apply('orders[0][column]=id&limit=5'), {}, { count: 'estimated', estimateThreshold: 1 }),
          )
          expect(queries.filter((query) => /count\(\*\)/i.test(query.sql))).to.have.length(
            db.name === 'postgres' ? 0 : 1,
          )
          expect(result.meta).to.deep.equal({
            current_page: 1,
            per_page: 5,
            from: 1,
            to: 5,
            total: posts.length,
            last_page: Math.ceil(posts.length / 5),
            estimated: db.name === 'postgres',
          })
        },
      )
    })

    it('an empty result: from and to null, one last page', async () => {
      const page = await paginate(
        apply('wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=100000&wheres[0][boolean]=and&page=1'),
        { page: 1 },
      )
      expect(page).to.deep.equal({
        data: [],
        meta: { current_page: 1, per_page: 15, total: 0, last_page: 1, from: null, to: null },
      })
    })

    it('rejects a page or limit below 1 given by the caller', async () => {
      let error: unknown
      try {
        await paginate(db.knex('posts'), { page: 0 })
      } catch (caught) {
        error = caught
      }
      expect(error).to.be.instanceOf(RangeError)
    })
  })
}
