import { expect } from 'chai'
import type { Knex } from 'knex'
import type { IntrospectArguments } from '../../lib/cli/cli-arguments.ts'
import { introspectDatabase } from '../../lib/cli/introspect-database.ts'
import { FULLTEXT_SQL } from '../../lib/dialect/fulltext-sql.ts'
import type { SchemaSearchIndex } from '../../lib/dialect/schema/schema-snapshot.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import { introspectRelationMapWithNotices } from '../../lib/introspect/introspect-relation-map.ts'
import { readSchema } from '../../lib/introspect/read-schema.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap, SearchDefinition } from '../../lib/relation-map.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'

const ROWS = {
  articles: [
    { title: 'Knex tips', body: 'Use indexes', summary: 'first' },
    { title: 'Hello', body: 'A post about knex', summary: 'second' },
    { title: 'Other', body: 'nothing here', summary: 'third' },
  ],
  notes: [
    { note_title: 'Knex notes', note_body: 'first' },
    { note_title: 'Second', note_body: 'more knex' },
    { note_title: 'Third', note_body: 'none' },
  ],
}

/** Each table with a text primary key column `id`, `title` and `body`, the rows above, and its search indexes. */
async function createSchema(db: TestDatabase, trigram: boolean): Promise<void> {
  const { knex } = db
  await knex.schema.createTable('articles', (table) => {
    table.increments('id')
    table.string('title', 200).notNullable()
    table.text('body')
    table.text('summary')
  })
  await knex.schema.createTable('plain', (table) => {
    table.increments('id')
    table.string('title', 200)
    table.text('body')
  })
  if (db.name === 'postgres') {
    await knex.raw(`create table notes (id serial primary key, note_title text, note_body text,
      doc tsvector generated always as (setweight(to_tsvector('english', coalesce(note_title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(note_body, '')), 'B')) stored)`)
    await knex.raw('create table pages (id serial primary key, title text, body text)')
  } else {
    await knex.schema.createTable('notes', (table) => {
      table.increments('id')
      table.string('note_title', 200)
      table.text('note_body')
    })
    if (db.name === 'sqlite') await knex.raw('create table pages (id integer primary key, ref integer, title text)')
  }
  await knex('articles').insert(ROWS.articles)
  await knex('notes').insert(ROWS.notes)
  await knex('plain').insert([{ title: 'Knex', body: 'plain' }])
  const articles = FULLTEXT_SQL[db.name].index('articles', ['title', 'body'], {
    language: 'english',
    fts: 'articles_fts',
    key: 'id',
  })
  await knex.raw(articles)
  if (db.name === 'postgres') {
    await knex.raw('create index notes_doc on notes using gin (doc)')
    await knex.raw(`create index pages_words on pages using gin (to_tsvector('english', title || ' ' || body))`)
    await knex.raw(`create index pages_lower on pages using gin (to_tsvector('english', lower(title)))`)
    if (trigram) {
      await knex.raw('create extension if not exists pg_trgm')
      await knex.raw('create index articles_summary_trgm on articles using gin (summary gin_trgm_ops)')
      await knex.raw('create table tags (id serial primary key, name text, label text, code integer)')
      await knex.raw('create index tags_name_trgm on tags using gin (name gin_trgm_ops)')
      await knex.raw('create index tags_label_trgm on tags using gist (label gist_trgm_ops)')
      await knex('tags').insert([
        { name: 'knexjs', label: 'x', code: 1 },
        { name: 'other', label: 'a KNEX label', code: 2 },
        { name: 'none', label: 'none', code: 3 },
      ])
    }
  } else if (db.name === 'mysql') {
    await knex.raw('create fulltext index notes_words on notes (note_body, note_title)')
    await knex.raw('create fulltext index articles_title on articles (title)')
  } else {
    await knex.raw(`insert into articles_fts(articles_fts) values ('rebuild')`)
    // No content_rowid: the rowid, which `id` (an INTEGER PRIMARY KEY) is the alias of.
    await knex.raw(`create virtual table notes_fts using fts5(note_title, "note_body", content='notes')`)
    await knex.raw(`insert into notes_fts(notes_fts) values ('rebuild')`)
    await knex.raw(`create virtual table pages_fts using fts5(title, content='pages', content_rowid='ref')`)
    // An FTS5 table with its own content: no table's search index, and not a resource either.
    await knex.raw('create virtual table memos using fts5(text, tokenize=porter)')
  }
}

const SHADOWS = (fts: string): string[] => ['config', 'data', 'docsize', 'idx'].map((suffix) => `${fts}_${suffix}`)

/** The search indexes of each table, as `readSchema` gives them (tables without any: absent). */
function expectedIndexes(db: TestDatabase, trigram: boolean): Record<string, SchemaSearchIndex[]> {
  if (db.name === 'sqlite')
    return {
      articles: [
        {
          name: 'articles_fts',
          mode: 'fulltext',
          columns: ['title', 'body'],
          fts: 'articles_fts',
          rowid: 'id',
          shadowTables: SHADOWS('articles_fts'),
        },
      ],
      notes: [
        {
          name: 'notes_fts',
          mode: 'fulltext',
          columns: ['note_title', 'note_body'],
          fts: 'notes_fts',
          rowid: 'id',
          shadowTables: SHADOWS('notes_fts'),
        },
      ],
      pages: [
        {
          name: 'pages_fts',
          mode: 'fulltext',
          columns: ['title'],
          fts: 'pages_fts',
          rowid: 'ref',
          shadowTables: SHADOWS('pages_fts'),
        },
      ],
    }
  if (db.name === 'mysql')
    return {
      articles: [
        { name: 'articles_search', mode: 'fulltext', columns: ['title', 'body'] },
        { name: 'articles_title', mode: 'fulltext', columns: ['title'] },
      ],
      notes: [{ name: 'notes_words', mode: 'fulltext', columns: ['note_body', 'note_title'] }],
    }
  return {
    articles: [
      { name: 'articles_search', mode: 'fulltext', columns: ['title', 'body'], language: 'english' },
      ...(trigram ? [{ name: 'articles_summary_trgm', mode: 'contains' as const, columns: ['summary'] }] : []),
    ],
    notes: [
      { name: 'notes_doc', mode: 'fulltext', columns: ['note_title', 'note_body'], language: 'english', vector: 'doc' },
    ],
    pages: [
      {
        name: 'pages_lower',
        mode: 'fulltext',
        columns: [],
        unreadable: `to_tsvector('english'::regconfig, lower(title))`,
      },
      {
        name: 'pages_words',
        mode: 'fulltext',
        columns: ['title', 'body'],
        language: 'english',
        expression: `to_tsvector('english'::regconfig, (title || ' '::text) || body)`,
      },
    ],
    ...(trigram
      ? {
          tags: [
            { name: 'tags_label_trgm', mode: 'contains' as const, columns: ['label'] },
            { name: 'tags_name_trgm', mode: 'contains' as const, columns: ['name'] },
          ],
        }
      : {}),
  }
}

/** The generated `search` of each table (naming: camel). */
function expectedSearches(db: TestDatabase, trigram: boolean): Record<string, SearchDefinition> {
  if (db.name === 'sqlite')
    return {
      articles: { columns: ['title', 'body'], mode: 'fulltext', fts: 'articles_fts' },
      notes: { columns: ['noteTitle', 'noteBody'], mode: 'fulltext', fts: 'notes_fts' },
    }
  if (db.name === 'mysql')
    return {
      articles: { columns: ['title', 'body'], mode: 'fulltext' },
      notes: { columns: ['noteBody', 'noteTitle'], mode: 'fulltext' },
    }
  return {
    articles: { columns: ['title', 'body'], mode: 'fulltext', language: 'english' },
    notes: { columns: ['noteTitle', 'noteBody'], mode: 'fulltext', language: 'english', vector: 'doc' },
    ...(trigram ? { tags: { columns: ['name', 'label'], mode: 'contains' as const } } : {}),
  }
}

/** The `search-index` notices of the generated map. */
function expectedNotices(db: TestDatabase, trigram: boolean): string[] {
  if (db.name === 'sqlite')
    return [
      `articles: the FTS5 table articles_fts and its shadow tables ${SHADOWS('articles_fts').join(', ')} folded into it: its search index, not resources`,
      `notes: the FTS5 table notes_fts and its shadow tables ${SHADOWS('notes_fts').join(', ')} folded into it: its search index, not resources`,
      `pages: the FTS5 table pages_fts and its shadow tables ${SHADOWS('pages_fts').join(', ')} folded into it: its search index, not resources`,
      `pages: no search declared from pages_fts (full-text over title (FTS5, rowid ref)): its rowid holds ref, not the table's key id`,
    ]
  if (db.name === 'mysql')
    return [
      'articles: articles_title (full-text over title) also serves a search; the search is declared from articles_search (full-text first, then the most columns, then by name)',
    ]
  return [
    ...(trigram
      ? [
          'articles: articles_summary_trgm (pg_trgm over summary) also serves a search; the search is declared from articles_search (full-text first, then the most columns, then by name)',
        ]
      : []),
    `pages: no search declared from pages_lower (full-text over to_tsvector('english'::regconfig, lower(title))): its columns and configuration could not be read from it`,
    `pages: no search declared from pages_words (full-text over title, body ('english') on the expression to_tsvector('english'::regconfig, (title || ' '::text) || body)): the search's SQL writes to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(body, '')), and PostgreSQL reads an expression index only for its own expression; create that index (or a GIN index on a generated tsvector column) and declare the search by hand`,
  ]
}

const searchProblems = async (knex: Knex, map: RelationMap) =>
  (await checkRelationMap(knex, map, { indexes: true })).filter((problem) => problem.kind === 'search_without_index')

const ids = (rows: ReadonlyArray<{ id: unknown }>): number[] => rows.map((row) => Number(row.id))

for (const database of testDatabases()) {
  describe(`search indexes: read, declared by introspect, checked (${database.label})`, function () {
    this.timeout(60_000)
    // PGlite loads pg_trgm only when constructed with it, and the suite's PGlite is not.
    const trigram = database.engine !== 'pglite'
    let fresh: TestDatabase

    before(async () => {
      fresh = await freshDatabase(database, 'searchintro')
      await createSchema(fresh, trigram)
    })

    after(async () => {
      await dropFreshDatabase(fresh)
    })

    it('readSchema gives each table its full-text (and pg_trgm) indexes; FTS5 and shadow tables are no tables', async () => {
      const { tables } = await readSchema(fresh.knex)
      const read = Object.fromEntries(
        tables.filter((table) => table.searchIndexes !== undefined).map((table) => [table.name, table.searchIndexes]),
      )
      expect(read).to.deep.equal(expectedIndexes(fresh, trigram))
      const names = tables.map((table) => table.name)
      const expected = ['articles', 'notes', ...(fresh.name === 'mysql' ? [] : ['pages']), 'plain']
      expect(names).to.deep.equal(trigram && fresh.name === 'postgres' ? [...expected, 'tags'] : expected)
    })

    it('introspect declares each search from its index, in client names, and notices what it does not declare', async () => {
      const { map, notices } = await introspectRelationMapWithNotices(fresh.knex, { naming: 'camel' })
      const searches = Object.fromEntries(
        Object.entries(map)
          .filter(([, table]) => table.search !== undefined)
          .map(([name, table]) => [name, table.search]),
      )
      expect(searches).to.deep.equal(expectedSearches(fresh, trigram))
      const search = notices.filter((notice) => notice.kind === 'search-index').map((notice) => notice.message)
      expect(search).to.deep.equal(expectedNotices(fresh, trigram))
    })

    it('the generated map is clean under checkRelationMap({ indexes: true }) and answers search= with rows', async () => {
      const { map } = await introspectRelationMapWithNotices(fresh.knex, { naming: 'camel' })
      const checked = defineRelationMap(map)
      expect(await searchProblems(fresh.knex, checked)).to.deep.equal([])
      const found = async (table: string, query: string) =>
        ids(await applyQueryParams(fresh.knex(table), parseQueryParams(query), checked))
      expect(await found('articles', 'search=knex&orders[0][column]=id')).to.deep.equal([1, 2])
      expect(await found('notes', 'search=knex&orders[0][column]=id')).to.deep.equal([1, 2])
      if (trigram && fresh.name === 'postgres')
        expect(await found('tags', 'search=knex&orders[0][column]=id')).to.deep.equal([1, 2])
    })

    it('the introspect command prints the search declaration in the map literal', async () => {
      const out: string[] = []
      const args: IntrospectArguments = { source: { connection: 'search' }, naming: 'camel', exposePivots: false }
      await introspectDatabase(fresh.knex, args, { out: (text) => out.push(text), err: () => {} }, process.cwd())
      const line = {
        sqlite: `search: { columns: ['title', 'body'], mode: 'fulltext', fts: 'articles_fts' },`,
        mysql: `search: { columns: ['title', 'body'], mode: 'fulltext' },`,
        postgres: `search: { columns: ['title', 'body'], mode: 'fulltext', language: 'english' },`,
      }[fresh.name]
      const text = out.join('\n')
      const articles = text.slice(
        text.indexOf('\n  articles: {'),
        text.indexOf('\n  },', text.indexOf('  articles: {')),
      )
      expect(articles.split('\n').map((each) => each.trim())).to.include(line)
    })

    it('a declared search over other columns than the index warns, naming the index that does not serve it', async () => {
      const { map } = await introspectRelationMapWithNotices(fresh.knex, { naming: 'camel' })
      const articles = map.articles
      if (articles === undefined) throw new Error('no articles')
      const search: SearchDefinition = { columns: ['body'], mode: 'fulltext', language: 'english', fts: 'articles_fts' }
      const narrowed = defineRelationMap({ ...map, articles: { ...articles, search } })
      const index = {
        sqlite: `create virtual table articles_fts using fts5(body, content='articles', content_rowid='id')`,
        mysql: 'create fulltext index articles_search on articles (body)',
        postgres: `create index articles_search on articles using gin (to_tsvector('english'::regconfig, coalesce(body, '')))`,
      }[fresh.name]
      const others = {
        sqlite: 'articles_fts (full-text over title, body (FTS5, rowid id))',
        mysql: 'articles_search (full-text over title, body); articles_title (full-text over title)',
        postgres: `articles_search (full-text over title, body ('english'))`,
      }[fresh.name]
      expect(await searchProblems(fresh.knex, narrowed)).to.deep.equal([
        {
          kind: 'search_without_index',
          level: 'warning',
          path: 'articles.search',
          message: `the fulltext search of articles reads every row of articles; create the index: ${index} (${others}: not what the search reads)`,
        },
      ])
    })

    // PostgreSQL's expression and pg_trgm indexes: no other database has them.
    if (database.name === 'postgres')
      it('on PostgreSQL, an index on another expression does not serve: the search is explained, and it warns', async () => {
        const search: SearchDefinition = { columns: ['title', 'body'], mode: 'fulltext', language: 'english' }
        const map = defineRelationMap({
          pages: { columns: { id: 'integer', title: 'string', body: 'string' }, search },
        })
        const [problem] = await searchProblems(fresh.knex, map)
        expect(problem?.message).to.equal(
          'the fulltext search of pages reads every row of pages; create the index: create index pages_search on pages ' +
            `using gin (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(body, ''))) ` +
            `(pages_lower (full-text over to_tsvector('english'::regconfig, lower(title))); pages_words (full-text over ` +
            `title, body ('english') on the expression to_tsvector('english'::regconfig, (title || ' '::text) || body)): ` +
            'not what the search reads)',
        )
      })

    it('a declared search without an index warns with the create statement; once created, it is quiet', async () => {
      const search: SearchDefinition = {
        columns: ['title', 'body'],
        mode: 'fulltext',
        language: 'english',
        fts: 'plain_fts',
      }
      const map = defineRelationMap({ plain: { columns: { id: 'integer', title: 'string', body: 'string' }, search } })
      const create = {
        sqlite: `create virtual table plain_fts using fts5(title, body, content='plain', content_rowid='id')`,
        mysql: 'create fulltext index plain_search on plain (title, body)',
        postgres: `create index plain_search on plain using gin (to_tsvector('english'::regconfig, coalesce(title, '') || ' ' || coalesce(body, '')))`,
      }[fresh.name]
      expect(await searchProblems(fresh.knex, map)).to.deep.equal([
        {
          kind: 'search_without_index',
          level: 'warning',
          path: 'plain.search',
          message: `the fulltext search of plain reads every row of plain; create the index: ${create}`,
        },
      ])
      await fresh.knex.raw(create)
      expect(await searchProblems(fresh.knex, map)).to.deep.equal([])
      const { map: generated } = await introspectRelationMapWithNotices(fresh.knex, { tables: ['plain'] })
      const { fts, language } = search
      const expected = { sqlite: { fts }, mysql: {}, postgres: { language } }[fresh.name]
      expect(generated.plain?.search).to.deep.equal({ columns: ['title', 'body'], mode: 'fulltext', ...expected })
    })

    const withoutTrigram = trigram ? '' : ' (skipped on PGlite: the suite constructs it without the pg_trgm extension)'
    if (database.name === 'postgres')
      it(`a contains search is quiet over pg_trgm indexes of its columns, and names the one missing${withoutTrigram}`, async function () {
        if (!trigram) this.skip()
        const columns = { id: 'integer', name: 'string', label: 'string', code: 'integer' } as const
        const served = defineRelationMap({
          tags: { columns, search: { columns: ['label', 'name'], mode: 'contains' } },
        })
        expect(await searchProblems(fresh.knex, served)).to.deep.equal([])
        const articles = defineRelationMap({
          articles: {
            columns: { id: 'integer', title: 'string', summary: 'string' },
            search: { columns: ['summary', 'title'], mode: 'contains' },
          },
        })
        expect(await searchProblems(fresh.knex, articles)).to.deep.equal([
          {
            kind: 'search_without_index',
            level: 'warning',
            path: 'articles.search',
            message:
              'the contains search of articles reads every row of articles; create the index: create extension ' +
              'pg_trgm; create index articles_title_trgm on articles using gin (title gin_trgm_ops)',
          },
        ])
      })
  })
}
