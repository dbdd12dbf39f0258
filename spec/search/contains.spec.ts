import { expect } from 'chai'
import fc from 'fast-check'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { paginate } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { idsOf, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'
import { containsMap, guardedContainsMap } from './support/searchable-map.ts'
import { containsOracle } from './support/contains-oracle.ts'

const search = (text: string): string => `search=${encodeURIComponent(text)}`

function searchPosts(db: TestDatabase, query: string, map: RelationMap = containsMap) {
  return applyQueryParams(db.knex('posts'), parseQueryParams(query), map)
}

/** Words of the demo data and pieces of them, with the characters a like pattern treats specially. */
const WORDS = [
  'sql',
  'SQL',
  'knex',
  'alice',
  'Use',
  'tutorial',
  'news',
  'data',
  '100%',
  '%',
  '_',
  'a_b',
  '\\',
  'C:\\temp',
  'of 100',
  'e',
  'x',
  'zz',
  'café',
  '"sql',
  'ee',
]

for (const db of testDatabases()) {
  describe(`search: contains (${db.name})`, () => {
    it('finds every word, case-insensitively, in at least one declared column (own and related)', async () => {
      const query = searchPosts(db, search('SQL tutorial'))
      expectSql(db.name, 'search/contains/two words', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3, 15])
      expect(sortedIdsOf(await searchPosts(db, search('knex')))).to.deep.equal([4, 22])
      expect(sortedIdsOf(await searchPosts(db, search('javascript')))).to.deep.equal([4, 6, 7, 13, 17, 22])
    })

    it('reads a related column through a relation filter, never multiplying rows (posts by Alice and alice)', async () => {
      const query = searchPosts(db, search('ALICE'))
      expectSql(db.name, 'search/contains/related column', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 3, 4, 5, 23])
      expect(sortedIdsOf(await searchPosts(db, search('a')))).to.have.length(new Set(containsOracle('a')).size)
    })

    it('keeps a double-quoted phrase whole', async () => {
      expect(sortedIdsOf(await searchPosts(db, search('"use indexes"')))).to.deep.equal([1])
      expect(sortedIdsOf(await searchPosts(db, search('"indexes use"')))).to.deep.equal([])
      expect(sortedIdsOf(await searchPosts(db, search('indexes use')))).to.deep.equal([1])
    })

    it('matches %, _ and \\ literally', async () => {
      const query = searchPosts(db, search('100%'))
      expectSql(db.name, 'search/contains/escaped', query)
      expect(sortedIdsOf(await query)).to.deep.equal([6])
      expect(sortedIdsOf(await searchPosts(db, search('%')))).to.deep.equal([6, 15])
      expect(sortedIdsOf(await searchPosts(db, search('a_b')))).to.deep.equal([15])
      expect(sortedIdsOf(await searchPosts(db, search('_')))).to.deep.equal([7, 15, 16])
      expect(sortedIdsOf(await searchPosts(db, search('C:\\temp\\new_file')))).to.deep.equal([16])
      expect(sortedIdsOf(await searchPosts(db, search('\\')))).to.deep.equal([16])
    })

    it("is ANDed with the client's grouped wheres and scopes", async () => {
      const wheres =
        'wheres[0][column]=views&wheres[0][operator]=>&wheres[0][value]=100&wheres[1][column]=published&wheres[1][operator]==&wheres[1][value]=false&wheres[1][boolean]=or'
      const query = searchPosts(db, `${search('sql')}&${wheres}`)
      expectSql(db.name, 'search/contains/with or wheres', query)
      expect(sortedIdsOf(await query)).to.deep.equal([1, 2, 5, 9, 15, 20])
      expect(sortedIdsOf(await searchPosts(db, `${search('sql')}&scopes[0]=popular`))).to.deep.equal([1, 2, 3, 9, 15])
    })

    it('composes with a page filtered through a relation by a unique column (the frequency-guarded forms)', async () => {
      const filter =
        'wheres[0][column]=author.email&wheres[0][value]=alice%40EXAMPLE.com&orders[0][column]=created_at&orders[0][direction]=desc&limit=2'
      expect(idsOf(await searchPosts(db, `${search('sql')}&${filter}`))).to.deep.equal([5, 4])
      expect(idsOf(await searchPosts(db, `${search('"sql i"')}&${filter}`))).to.deep.equal([5])
    })

    it('applies the guard of a related table inside its relation filter', async () => {
      const query = searchPosts(db, search('alice'), guardedContainsMap)
      expectSql(db.name, 'search/contains/guarded relation', query)
      expect(sortedIdsOf(await query)).to.deep.equal([23])
      expect(containsOracle('alice', new Set([1]))).to.deep.equal([23])
    })

    it('counts the searched rows in paginate totals, and leaves eager-loaded relations unfiltered', async () => {
      const page = await paginate(
        searchPosts(db, `${search('sql')}&limit=2&page=1&with[0]=tags&orders[0][column]=id`),
        { limit: 2, page: 1 },
      )
      expect(page.meta.total).to.equal(containsOracle('sql').length)
      expect(page.data.map((row) => Number(row.id))).to.deep.equal(containsOracle('sql').slice(0, 2))
      const first = page.data[0] as { tags: Array<{ name: string }> }
      expect(first.tags.map((tag) => tag.name).sort()).to.deep.equal(['databases', 'sql', 'tutorial'])
    })

    it('gives the rows of a plain JS oracle for random texts (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          async (words, quoted) => {
            const text = quoted && words.length > 1 ? `"${words.join(' ')}"` : words.join(' ')
            expect(sortedIdsOf(await searchPosts(db, search(text))), text).to.deep.equal(containsOracle(text))
          },
        ),
        { numRuns: 40, seed: 33 },
      )
    })

    it('is search_not_allowed on a table declaring no search, and limit_exceeded past the caps', () => {
      expectQueryParamsError(() => applyQueryParams(db.knex('users'), parseQueryParams(search('bob')), containsMap), {
        code: 'search_not_allowed',
        param: 'search',
      })
      expectQueryParamsError(() => applyQueryParams(db.knex('posts'), parseQueryParams(search('sql')), relationMap), {
        code: 'search_not_allowed',
        param: 'search',
      })
      expectQueryParamsError(() => parseQueryParams(search('x'.repeat(201))), {
        code: 'limit_exceeded',
        param: 'search',
      })
      expectQueryParamsError(() => parseQueryParams(search('a b c d e f g h i j k')), {
        code: 'limit_exceeded',
        param: 'search',
      })
      expectQueryParamsError(() => parseQueryParams('search[0]=a'), { code: 'invalid_value', param: 'search' })
      expect(parseQueryParams(search('x'.repeat(200))).search).to.have.length(200)
      expect(parseQueryParams(search('a b c d e f g h i j')).search).to.equal('a b c d e f g h i j')
      expect(parseQueryParams(search('  ')).search).to.equal(undefined)
    })
  })
}
