import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { applyQuery, idsOf, rowsOf, sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

const sqlOf = (builder: {
  toSQL(): { sql: string; bindings: readonly unknown[] }
}): { sql: string; bindings: unknown[] } => {
  const { sql, bindings } = builder.toSQL()
  return { sql, bindings: [...bindings] }
}

const FULL_REQUEST =
  'wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&wheres[1][column]=views&wheres[1][operator]=%3E&wheres[1][value]=100&wheres[1][boolean]=or' +
  '&relations_exists[0]=comments&scopes[0]=popular&columns[0]=id&columns[1]=title&orders[0][column]=views&orders[0][direction]=desc&limit=3&offset=1&with[0]=author'

for (const db of testDatabases()) {
  describe(`applyQueryParams: the builder (${db.name})`, () => {
    it('returns a new builder and leaves the input builder unchanged', async () => {
      const input = db.knex('posts').where('posts.user_id', 1).orWhere('posts.user_id', 2)
      const before = sqlOf(input)
      const output = applyQuery(db, 'posts', FULL_REQUEST, {}, input)
      expect(output).not.to.equal(input)
      expect(sqlOf(input)).to.deep.equal(before)
      expect(sqlOf(output)).not.to.deep.equal(before)
      expect(sortedIdsOf(await input)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8])
      expect(rowsOf(await output)).to.have.length(3)
      expect(sqlOf(input)).to.deep.equal(before)
    })

    it('can be applied twice to the same input with different params', async () => {
      const input = db.knex('posts').where('posts.user_id', 5)
      const first = applyQuery(db, 'posts', 'wheres[0][column]=published&wheres[0][value]=false', {}, input)
      const second = applyQuery(
        db,
        'posts',
        'wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=100',
        {},
        input,
      )
      expect(sortedIdsOf(await first)).to.deep.equal([16])
      expect(sortedIdsOf(await second)).to.deep.equal([13, 15])
    })

    it('applies every parameter kind together', async () => {
      const query = applyQuery(
        db,
        'posts',
        FULL_REQUEST,
        {},
        db.knex('posts').where('posts.user_id', 1).orWhere('posts.user_id', 2),
      )
      expectSql(db.name, 'apply/builder/every parameter', query)
      const rows = rowsOf(await query)
      expect(rows.map((row) => row.id)).to.deep.equal([2, 6, 3])
      for (const row of rows) expect(Object.keys(row)).to.deep.equal(['id', 'title', 'author'])
      expect(rows.map((row) => (row.author as { name?: unknown } | null)?.name)).to.deep.equal([
        'Alice',
        'Bob',
        'Alice',
      ])
    })

    it('qualifies every column, so the caller can join another table without ambiguity', async () => {
      const base = db.knex('posts').join('users', 'users.id', 'posts.user_id').where('users.is_admin', true)
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=10&wheres[1][column]=created_at&wheres[1][operator]=%3E&wheres[1][value]=2020-01-01&columns[0]=id&columns[1]=title&orders[0][column]=views&orders[0][direction]=desc&limit=3',
        {},
        base,
      )
      expectSql(db.name, 'apply/builder/caller join', query)
      expect(rowsOf(await query)).to.deep.equal([
        { id: 17, title: 'Design Systems' },
        { id: 18, title: 'COBOL Memories' },
        { id: 11, title: 'Indexing 101' },
      ])
    })

    it("keeps the caller's join and select when the client sends no columns", async () => {
      const base = db
        .knex('posts')
        .join('users', 'users.id', 'posts.user_id')
        .select('posts.id', 'users.name as author_name')
      const rows = rowsOf(
        await applyQuery(
          db,
          'posts',
          'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=6&wheres[0][value][1]=12&orders[0][column]=id',
          {},
          base,
        ),
      )
      expect(rows).to.deep.equal([
        { id: 6, author_name: 'Bob' },
        { id: 12, author_name: 'dave' },
      ])
    })

    it('qualifies with the alias of db("posts as p")', async () => {
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=comments.user_id&wheres[0][value]=12&orders[0][column]=author.name&columns[0]=id',
        {},
        db.knex('posts as p'),
      )
      expectSql(db.name, 'apply/builder/table alias', query)
      expect(idsOf(await query)).to.deep.equal([13, 21])
    })

    it('takes the base table from options.table when the builder cannot tell it (a subquery)', async () => {
      const unpublished = db.knex('posts').where('posts.published', false).as('posts')
      const query = applyQuery(
        db,
        'posts',
        'wheres[0][column]=views&wheres[0][value]=0&columns[0]=id',
        { table: 'posts' },
        db.knex.from(unpublished),
      )
      expectSql(db.name, 'apply/builder/options.table', query)
      expect(sortedIdsOf(await query)).to.deep.equal([5, 8, 16, 20, 24])
    })

    it('validates against the relation map entry of options.table', () => {
      const unpublished = db.knex('posts').where('posts.published', false).as('posts')
      expect(() =>
        applyQueryParams(db.knex.from(unpublished), parseQueryParams('columns[0]=name'), relationMap, {
          table: 'posts',
        }),
      )
        .to.throw(QueryParamsError)
        .with.property('code', 'unknown_column')
    })

    it('throws a configuration Error (not a 400) when the base table cannot be told', () => {
      const attempt = (): unknown => applyQueryParams(db.knex.queryBuilder(), {}, relationMap)
      expect(attempt).to.throw(Error, /options\.table/)
      expect(attempt).not.to.throw(QueryParamsError)
    })

    it('throws a configuration Error (not a 400) for a table missing from the relation map', () => {
      const attempt = (): unknown => applyQueryParams(db.knex('post_tag'), {}, relationMap)
      expect(attempt).to.throw(Error, /post_tag/)
      expect(attempt).not.to.throw(QueryParamsError)
    })

    it('accepts params built by hand (no parser), with camelCase error paths', async () => {
      const rows = await applyQueryParams(
        db.knex('users'),
        { wheres: [{ column: 'isAdmin', operator: '=', value: true, boolean: 'and' }], relationsExists: ['ownedTeam'] },
        relationMap,
      )
      expect(sortedIdsOf(rows)).to.deep.equal([1, 3])
      expect(() => applyQueryParams(db.knex('users'), { relationsExists: ['nope'] }, relationMap))
        .to.throw(QueryParamsError)
        .with.property('param', 'relationsExists[0]')
    })
  })
}
