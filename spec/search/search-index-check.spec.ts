import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { createFulltextIndex, dropFulltextIndex, POSTS_FULLTEXT } from './support/fulltext-index.ts'

const fulltextMap = defineRelationMap({ ...relationMap, posts: { ...relationMap.posts, search: POSTS_FULLTEXT } })
const containsMap = defineRelationMap({
  ...relationMap,
  posts: { ...relationMap.posts, search: { columns: ['title'], mode: 'contains' } },
})

const CREATE = {
  postgres: `create index posts_search on posts using gin (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(body, '')))`,
  mysql: 'create fulltext index posts_search on posts (title, body)',
  sqlite: `create virtual table posts_fts using fts5(title, body, content='posts', content_rowid='id')`,
}

for (const db of testDatabases()) {
  describe(`search: checkRelationMap({ indexes: true }) (${db.name})`, () => {
    const searchProblems = async (map: RelationMap) =>
      (await checkRelationMap(db.knex, map, { indexes: true })).filter(
        (problem) => problem.kind === 'search_without_index',
      )

    it('warns search_without_index for a fulltext search without its index, naming the index to create', async () => {
      expect(await searchProblems(fulltextMap)).to.deep.equal([
        {
          kind: 'search_without_index',
          level: 'warning',
          path: 'posts.search',
          message: `the fulltext search of posts reads every row of posts; create the index: ${CREATE[db.name]}`,
        },
      ])
    })

    it('is quiet once that index exists (the search reads it)', async () => {
      await createFulltextIndex(db)
      try {
        expect(await searchProblems(fulltextMap)).to.deep.equal([])
      } finally {
        await dropFulltextIndex(db)
      }
    })

    it('warns for a contains search without an index that serves like (a pg_trgm GIN index on PostgreSQL)', async () => {
      const [problem] = await searchProblems(containsMap)
      const fix =
        db.name === 'postgres'
          ? 'create the index: create extension pg_trgm; create index posts_title_trgm on posts using gin (title gin_trgm_ops)'
          : `no index serves like '%…%' on ${db.name}; declare mode: 'fulltext' over an index if the table is large`
      expect(problem?.message).to.equal(`the contains search of posts reads every row of posts; ${fix}`)
    })
  })
}
