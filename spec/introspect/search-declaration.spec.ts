import { expect } from 'chai'
import { readFts5 } from '../../lib/dialect/schema/fts5-declaration.ts'
import type { SchemaSearchIndex, SchemaTable } from '../../lib/dialect/schema/schema-snapshot.ts'
import { readTsvector } from '../../lib/dialect/schema/tsvector-expression.ts'
import { relationMapFromSchema } from '../../lib/introspect/relation-map-from-schema.ts'

describe('search indexes: reading their expressions', () => {
  it('readTsvector reads the columns and configuration of to_tsvector expressions as PostgreSQL prints them', () => {
    expect(
      readTsvector(
        `to_tsvector('english'::regconfig, (COALESCE(title, ''::character varying)::text || ' '::text) || COALESCE(body, ''::text))`,
      ),
    ).to.deep.equal({ columns: ['title', 'body'], languages: ['english'], searchForm: true })
    expect(readTsvector(`to_tsvector('simple'::regconfig, COALESCE("Title", ''::text))`)).to.deep.equal({
      columns: ['Title'],
      languages: ['simple'],
      searchForm: true,
    })
    // Forms people write, which the search's SQL does not: read, but not the search's form.
    expect(readTsvector(`to_tsvector('english'::regconfig, title::text)`)).to.deep.equal({
      columns: ['title'],
      languages: ['english'],
      searchForm: false,
    })
    expect(readTsvector(`to_tsvector('english'::regconfig, concat_ws(' '::text, title, body))`)).to.deep.equal({
      columns: ['title', 'body'],
      languages: ['english'],
      searchForm: false,
    })
    // `||` nested to the right is another expression than the search's, nested to the left.
    expect(
      readTsvector(`to_tsvector('english'::regconfig, COALESCE(a, ''::text) || (' '::text || COALESCE(b, ''::text)))`),
    ).to.deep.include({ columns: ['a', 'b'], searchForm: false })
    // A generated column's weighted vector: two configurations are both reported.
    expect(
      readTsvector(
        `(setweight(to_tsvector('english'::regconfig, (COALESCE(title, ''::character varying))::text), 'A'::"char") || setweight(to_tsvector('simple'::regconfig, COALESCE(body, ''::text)), 'B'::"char"))`,
      ),
    ).to.deep.equal({ columns: ['title', 'body'], languages: ['english', 'simple'], searchForm: false })
  })

  it('readTsvector gives undefined for what it cannot read back to columns', () => {
    expect(readTsvector(`to_tsvector('english'::regconfig, lower(title))`)).to.equal(undefined)
    expect(readTsvector(`to_tsvector(title)`)).to.equal(undefined)
    expect(readTsvector(`to_tsvector(cfg, title)`)).to.equal(undefined)
    expect(readTsvector(`title`)).to.equal(undefined)
  })

  it('readFts5 reads the columns (not UNINDEXED ones), content and content_rowid of an FTS5 statement', () => {
    expect(
      readFts5(
        `CREATE VIRTUAL TABLE posts_fts USING fts5("title", [body], lead UNINDEXED, content='posts', content_rowid="id", tokenize='porter unicode61')`,
      ),
    ).to.deep.equal({ columns: ['title', 'body'], content: 'posts', contentRowid: 'id' })
    expect(readFts5(`create virtual table memos using fts5(text)`)).to.deep.equal({
      columns: ['text'],
      content: undefined,
      contentRowid: undefined,
    })
    expect(readFts5(`create virtual table spatial using rtree(id, minx, maxx)`)).to.equal(undefined)
  })
})

const posts = (searchIndexes: SchemaSearchIndex[]): SchemaTable => ({
  name: 'posts',
  columns: [
    { name: 'id', dataType: 'integer', type: 'integer', nullable: false },
    { name: 'post_title', dataType: 'text', type: 'string', nullable: true },
    { name: 'body', dataType: 'text', type: 'string', nullable: true },
    { name: 'api_token', dataType: 'text', type: 'string', nullable: true },
    { name: 'views', dataType: 'integer', type: 'integer', nullable: true },
  ],
  primaryKey: ['id'],
  uniques: [],
  indexes: [['id']],
  foreignKeys: [],
  searchIndexes,
})

const generated = (searchIndexes: SchemaSearchIndex[]) => {
  const { map, notices } = relationMapFromSchema({ tables: [posts(searchIndexes)] }, { naming: 'camel' })
  return {
    search: map.posts?.search,
    notices: notices.filter((notice) => notice.kind === 'search-index').map((notice) => notice.message),
  }
}

describe('relationMapFromSchema: the search declaration (hand-made snapshots)', () => {
  it('several full-text indexes: the one over the most columns, then the first by name; the others noticed', () => {
    expect(
      generated([
        { name: 'b_title', mode: 'fulltext', columns: ['post_title'], language: 'simple' },
        { name: 'a_body', mode: 'fulltext', columns: ['body'], language: 'simple' },
        { name: 'c_both', mode: 'fulltext', columns: ['post_title', 'body'], language: 'english' },
      ]),
    ).to.deep.equal({
      search: { columns: ['postTitle', 'body'], mode: 'fulltext', language: 'english' },
      notices: [
        "posts: a_body (full-text over body ('simple')) also serves a search; the search is declared from c_both (full-text first, then the most columns, then by name)",
        "posts: b_title (full-text over post_title ('simple')) also serves a search; the search is declared from c_both (full-text first, then the most columns, then by name)",
      ],
    })
    expect(
      generated([
        { name: 'b_title', mode: 'fulltext', columns: ['post_title'] },
        { name: 'a_body', mode: 'fulltext', columns: ['body'] },
      ]).search,
    ).to.deep.equal({ columns: ['body'], mode: 'fulltext' })
  })

  it('an index over a column the map leaves out (secret, or no string) is not declared, with a notice', () => {
    expect(
      generated([
        { name: 'secret', mode: 'fulltext', columns: ['post_title', 'api_token'] },
        { name: 'numbers', mode: 'contains', columns: ['views'] },
      ]),
    ).to.deep.equal({
      search: undefined,
      notices: [
        'posts: no search declared from secret (full-text over post_title, api_token): api_token is not a string column of the map',
        'posts: no search declared from numbers (pg_trgm over views): no column of it is a string column of the map',
      ],
    })
  })

  it('contains over the string columns pg_trgm indexes cover, in table order, when no full-text index serves', () => {
    expect(
      generated([
        { name: 'trgm_body', mode: 'contains', columns: ['body'] },
        { name: 'trgm_title', mode: 'contains', columns: ['post_title', 'views'] },
        { name: 'lower_title', mode: 'contains', columns: [], unreadable: 'lower(post_title)' },
      ]),
    ).to.deep.equal({
      search: { columns: ['postTitle', 'body'], mode: 'contains' },
      notices: [
        'posts: no search declared from lower_title (pg_trgm over lower(post_title)): its columns could not be read from it',
      ],
    })
  })

  it('a tsvector column whose columns are unknown (filled by a trigger) is not declared, with a notice', () => {
    const unreadable = 'doc is not a generated column: the columns it is filled from are not known'
    expect(generated([{ name: 'posts_doc', mode: 'fulltext', columns: [], vector: 'doc', unreadable }])).to.deep.equal({
      search: undefined,
      notices: [
        `posts: no search declared from posts_doc (full-text over ${unreadable} through the tsvector column doc): its columns and configuration could not be read from it`,
      ],
    })
  })
})
