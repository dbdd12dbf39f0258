import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { validateRelationMap } from '../../lib/map/validate-relation-map.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'

const withSearch = (search: unknown, posts: object = {}): unknown => ({
  ...relationMap,
  posts: { ...relationMap.posts, ...posts, search },
})

function mapError(map: unknown): string {
  try {
    validateRelationMap(map)
  } catch (error) {
    expect(error).to.be.instanceOf(Error).and.not.instanceOf(QueryParamsError)
    return (error as Error).message
  }
  throw new Error('expected the map to be refused')
}

describe('search: the declaration, checked with the map', () => {
  it('accepts own columns and relation.column paths in contains mode, own columns in fulltext mode', () => {
    expect(() =>
      validateRelationMap(
        withSearch({
          columns: ['title', 'body', 'author.name', 'tags.name', 'comments.author.email'],
          mode: 'contains',
        }),
      ),
    ).not.to.throw()
    expect(() =>
      validateRelationMap(
        withSearch({
          columns: ['title', 'body'],
          mode: 'fulltext',
          language: 'english',
          fts: 'posts_fts',
          vector: 'doc',
        }),
      ),
    ).not.to.throw()
  })

  it('is a plain Error naming the path of a bad column, relation or key', () => {
    expect(mapError(withSearch({ columns: ['title', 'author.nam'], mode: 'contains' }))).to.equal(
      "knex-query-params: posts.search.columns[1]: 'nam' is not a column of users (did you mean 'name'?)",
    )
    expect(mapError(withSearch({ columns: ['autor.name'], mode: 'contains' }))).to.equal(
      "knex-query-params: posts.search.columns[0]: 'autor' is not a relation of posts (did you mean 'author'?)",
    )
    expect(mapError(withSearch({ columns: ['views'], mode: 'contains' }))).to.equal(
      "knex-query-params: posts.search.columns[0]: 'views' of posts is declared 'integer'; only string columns can be searched",
    )
    expect(mapError(withSearch({ columns: ['images.imageable.name'], mode: 'contains' }))).to.equal(
      "knex-query-params: posts.search.columns[0]: 'imageable' is a morphTo relation; a search path cannot pass through one",
    )
    expect(mapError(withSearch({ columns: ['author.name'], mode: 'fulltext' }))).to.match(
      /^knex-query-params: posts\.search\.columns\[0\]: 'author\.name' is a relation column: a fulltext search reads it from users's own full-text index/,
    )
    expect(mapError(withSearch({ columns: ['title'], mode: 'prefix' }))).to.equal(
      "knex-query-params: posts.search.mode: expected 'contains' or 'fulltext', got 'prefix'",
    )
    expect(mapError(withSearch({ columns: [], mode: 'contains' }))).to.equal(
      'knex-query-params: posts.search.columns: expected a non-empty list of columns, got an array',
    )
    expect(mapError(withSearch({ columns: ['title', 'title'], mode: 'contains' }))).to.equal(
      "knex-query-params: posts.search.columns[1]: 'title' is already searched; list each column once",
    )
    expect(mapError(withSearch({ columns: ['title'], mode: 'contains', colums: [] }))).to.match(
      /^knex-query-params: posts\.search\.colums: unknown key/,
    )
    expect(mapError(withSearch({ columns: ['title'], mode: 'contains', language: 'english' }))).to.equal(
      "knex-query-params: posts.search.language: only a 'fulltext' search takes language",
    )
    expect(
      mapError(withSearch({ columns: ['title'], mode: 'fulltext', language: "english'); drop table posts; --" })),
    ).to.match(/^knex-query-params: posts\.search\.language: expected a plain SQL name/)
  })

  it('refuses a column a client may not filter with like', () => {
    const posts = { columns: { ...relationMap.posts.columns, body: { type: 'string', operators: ['='] } } }
    expect(mapError(withSearch({ columns: ['body'], mode: 'contains' }, posts))).to.equal(
      "knex-query-params: posts.search.columns[0]: 'body' of posts may not be filtered with 'like'; a searched column must allow it",
    )
  })
})
