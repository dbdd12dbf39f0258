import { expect } from 'chai'
import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { cursorPaginate, paginate } from '../../lib/index.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { idsOf, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'
import { createFulltextIndex, dropFulltextIndex, POSTS_FULLTEXT } from './support/fulltext-index.ts'

const fulltextMap = defineRelationMap({ ...relationMap, posts: { ...relationMap.posts, search: POSTS_FULLTEXT } })

/** Posts other than post 4 (one of the two that say knex): a guard the search must meet beside its full-text table. */
const guardedFulltextMap = defineRelationMap({
  ...fulltextMap,
  posts: {
    ...fulltextMap.posts,
    guard: (query, { table }) => {
      query.whereNot(`${table}.id`, 4)
    },
  },
})

const search = (text: string): string => `search=${encodeURIComponent(text)}`
const byRelevance = (direction: 'asc' | 'desc'): string =>
  `orders[0][column]=relevance&orders[0][direction]=${direction}`

function searchPosts(db: TestDatabase, query: string, base?: Knex.QueryBuilder): Knex.QueryBuilder {
  return applyQueryParams(base ?? db.knex('posts'), parseQueryParams(query), fulltextMap)
}

for (const db of testDatabases()) {
  describe(`search: fulltext (${db.name})`, () => {
    before(async () => createFulltextIndex(db))
    after(async () => dropFulltextIndex(db))

    it("asks the database's full-text index, every word required", async () => {
      const query = searchPosts(db, search('knex sql'))
      expectSql(db.name, 'search/fulltext/two words', query)
      expect(sortedIdsOf(await query)).to.deep.equal([4])
      expect(sortedIdsOf(await searchPosts(db, search('knex')))).to.deep.equal([4, 22])
      expect(sortedIdsOf(await searchPosts(db, search('KNEX Migrations')))).to.deep.equal([22])
    })

    it('stems words only where the index configuration does (PostgreSQL english: indexes, indexing → index)', async () => {
      expect(sortedIdsOf(await searchPosts(db, search('indexes')))).to.deep.equal(
        db.name === 'postgres' ? [1, 11] : [1],
      )
    })

    it('keeps a phrase whole and escapes the database operators in the text', async () => {
      expect(sortedIdsOf(await searchPosts(db, search('"use indexes"')))).to.deep.equal([1])
      expect(sortedIdsOf(await searchPosts(db, search('"indexes use"')))).to.deep.equal([])
      for (const text of [
        '-knex',
        'knex*',
        '+knex',
        'knex OR sql',
        '(knex)',
        'knex"',
        '~knex',
        '@knex',
        'NEAR(knex',
        "knex'",
        'knex:*',
      ]) {
        const ids = sortedIdsOf(await searchPosts(db, search(text)))
        expect(ids, text).to.satisfy((found: number[]) => found.every((id) => [4, 22].includes(id)))
      }
      expect(sortedIdsOf(await searchPosts(db, search('"+-"')))).to.deep.equal([])
    })

    it('orders by relevance, best first, with the primary key as tie-breaker, and pages', async () => {
      const query = searchPosts(db, `${search('knex')}&${byRelevance('desc')}&limit=10`)
      expectSql(db.name, 'search/fulltext/by relevance', query)
      expect(idsOf(await query)).to.deep.equal([4, 22])
      expect(idsOf(await searchPosts(db, `${search('knex')}&${byRelevance('asc')}&limit=10`))).to.deep.equal([22, 4])
      const page = await paginate(searchPosts(db, `${search('knex')}&${byRelevance('desc')}&limit=1&page=2`), {
        limit: 1,
        page: 2,
      })
      expect({ ids: page.data.map((row) => Number(row.id)), total: page.meta.total }).to.deep.equal({
        ids: [22],
        total: 2,
      })
    })

    it('is ANDed with the grouped wheres', async () => {
      const wheres =
        'wheres[0][column]=views&wheres[0][operator]=<&wheres[0][value]=50&wheres[1][column]=id&wheres[1][operator]==&wheres[1][value]=1&wheres[1][boolean]=or'
      expect(sortedIdsOf(await searchPosts(db, `${search('knex')}&${wheres}`))).to.deep.equal([4])
    })

    it('meets the guard and the wheres beside the full-text index, and paginate counts the searched rows', async () => {
      const query = applyQueryParams(
        db.knex('posts'),
        parseQueryParams(`${search('sql')}&orders[0][column]=id&orders[0][direction]=desc&limit=10`),
        guardedFulltextMap,
      )
      expectSql(db.name, 'search/fulltext/guarded page', query)
      const all = await searchPosts(db, search('sql'))
      expect(sortedIdsOf(all)).to.include(4)
      const expected = sortedIdsOf(all)
        .filter((id) => id !== 4)
        .reverse()
      expect(idsOf(await query)).to.deep.equal(expected)
      const page = await paginate(
        applyQueryParams(
          db.knex('posts'),
          parseQueryParams(`${search('sql')}&orders[0][column]=id&orders[0][direction]=desc&limit=1&page=2`),
          guardedFulltextMap,
        ),
        { limit: 1, page: 2 },
      )
      expect({ ids: page.data.map((row) => Number(row.id)), total: page.meta.total }).to.deep.equal({
        ids: expected.slice(1, 2),
        total: expected.length,
      })
    })

    it('pages by cursor through the matches, newest first and by relevance', async () => {
      const secret = 'search-cursor-secret-of-32-bytes!'
      const orders: Array<[string, number[]]> = [
        ['orders[0][column]=id&orders[0][direction]=desc', [22, 4]],
        [byRelevance('desc'), [4, 22]],
      ]
      for (const [order, ids] of orders) {
        const first = parseQueryParams(`${search('knex')}&${order}&limit=1`)
        const page1 = await cursorPaginate(applyQueryParams(db.knex('posts'), first, fulltextMap), first, { secret })
        const next = parseQueryParams(`${search('knex')}&${order}&limit=1&cursor=${page1.meta.next_cursor ?? ''}`)
        const page2 = await cursorPaginate(applyQueryParams(db.knex('posts'), next, fulltextMap), next, { secret })
        expect([...idsOf(page1.data), ...idsOf(page2.data)], order).to.deep.equal(ids)
        expect(page2.meta.next_cursor, order).to.equal(null)
      }
    })

    it('keeps the full-text test in the where when the builder selects * (a joined table would add its columns)', async () => {
      const query = searchPosts(db, search('knex'), db.knex('posts').select('*'))
      expectSql(db.name, 'search/fulltext/select star', query)
      expect(sortedIdsOf(await query)).to.deep.equal([4, 22])
    })

    it('refuses an order by relevance without a search text, or on a contains search (invalid_order)', () => {
      expectQueryParamsError(() => searchPosts(db, byRelevance('desc')), {
        code: 'invalid_order',
        param: 'orders[0][column]',
      })
      const containsMap = defineRelationMap({
        ...relationMap,
        posts: { ...relationMap.posts, search: { columns: ['title'], mode: 'contains' } },
      })
      expectQueryParamsError(
        () =>
          applyQueryParams(db.knex('posts'), parseQueryParams(`${search('a')}&${byRelevance('desc')}`), containsMap),
        {
          code: 'invalid_order',
          param: 'orders[0][column]',
        },
      )
    })
  })
}
