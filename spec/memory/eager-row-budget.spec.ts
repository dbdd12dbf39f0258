import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { applyQuery, rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

const POSTS = demoData.posts.length
const COMMENTS = demoData.comments.length
const TEAMS_WITH_USERS = new Set(demoData.users.map((user) => user.team_id).filter((id) => id !== null)).size

/** The error `run` rejects with; fails when it resolves. */
async function rejection(run: () => PromiseLike<unknown>): Promise<QueryParamsError> {
  try {
    await run()
  } catch (error) {
    expect(error).to.be.instanceOf(QueryParamsError)
    return error as QueryParamsError
  }
  throw new Error('expected a QueryParamsError')
}

/** The row limit an eager-load query asked for: its last binding. */
const rowLimitOf = (bindings: readonly unknown[] | undefined): number => Number(bindings?.at(-1))

for (const db of testDatabases()) {
  describe(`maxEagerRows: the eager-loading row budget (${db.name})`, () => {
    it('loads exactly the budget, asking the database for at most the rows left plus one', async () => {
      const { result, queries } = await countQueries(db.knex, () =>
        applyQuery(db, 'users', 'with[0]=posts', { maxEagerRows: POSTS }),
      )
      expect(rowsOf(result).flatMap((user) => rowsOf(user.posts))).to.have.length(POSTS)
      expect(queries).to.have.length(2)
      expect(rowLimitOf(queries[1]?.bindings)).to.equal(POSTS + 1)
    })

    it('one row past the budget is limit_exceeded naming the with entry, found by a query limited to budget + 1 rows', async () => {
      const { queries, result } = await countQueries(db.knex, async () =>
        rejection(() => applyQuery(db, 'users', 'with[0]=posts', { maxEagerRows: POSTS - 1 })),
      )
      expect(result.toJSON()).to.deep.include({ code: 'limit_exceeded', param: 'with[0]' })
      expect(result.status).to.equal(400)
      expect(result.message)
        .to.include(`more than ${POSTS - 1} related rows`)
        .and.include('maxEagerRows')
      expect(queries).to.have.length(2)
      expect(rowLimitOf(queries[1]?.bindings)).to.equal(POSTS)
    })

    it('counts every relation and level together, and names the entry that crossed it', async () => {
      const query = 'with[0]=team&with[1]=posts.comments'
      const enough = TEAMS_WITH_USERS + POSTS + COMMENTS
      const { queries } = await countQueries(db.knex, () => applyQuery(db, 'users', query, { maxEagerRows: enough }))
      expect(queries.slice(1).map((event) => rowLimitOf(event.bindings))).to.deep.equal([
        enough + 1,
        enough - TEAMS_WITH_USERS + 1,
        COMMENTS + 1,
      ])
      const error = await rejection(() => applyQuery(db, 'users', query, { maxEagerRows: enough - 1 }))
      expect(error.toJSON()).to.deep.include({ code: 'limit_exceeded', param: 'with[1]' })
      const early = await rejection(() => applyQuery(db, 'users', query, { maxEagerRows: TEAMS_WITH_USERS + 1 }))
      expect(early.param).to.equal('with[1]')
      const first = await rejection(() => applyQuery(db, 'users', query, { maxEagerRows: TEAMS_WITH_USERS - 1 }))
      expect(first.param).to.equal('with[0]')
    })

    it('a * expands within the same budget', async () => {
      const all = await applyQuery(db, 'posts', 'with[0]=*', { maxEagerRows: 1_000_000 })
      let loaded = 0
      for (const post of rowsOf(all)) {
        for (const name of ['author', 'comments', 'tags', 'images']) {
          const value = post[name]
          loaded += Array.isArray(value) ? value.length : value === null ? 0 : 1
        }
      }
      // belongsTo loads each distinct author once, though several posts share one.
      const authors = new Set(demoData.posts.map((post) => post.user_id)).size
      const budget = loaded - (POSTS - authors)
      await applyQuery(db, 'posts', 'with[0]=*', { maxEagerRows: budget })
      const error = await rejection(() => applyQuery(db, 'posts', 'with[0]=*', { maxEagerRows: budget - 1 }))
      expect(error.toJSON()).to.deep.include({ code: 'limit_exceeded', param: 'with[0]' })
    })

    it('the default budget is 10,000 rows', async () => {
      const { queries } = await countQueries(db.knex, () => applyQuery(db, 'users', 'with[0]=posts'))
      expect(rowLimitOf(queries[1]?.bindings)).to.equal(10_001)
    })

    it('loadRelations takes maxEagerRows too', async () => {
      const users = await db.knex('users').select('id', 'team_id').orderBy('id')
      const error = await rejection(() =>
        loadRelations(db.knex, 'users', users, ['team', 'posts'], relationMap, { maxEagerRows: POSTS }),
      )
      expect(error.toJSON()).to.deep.include({ code: 'limit_exceeded', param: 'with[1]' })
      const loaded = await loadRelations(
        db.knex,
        'users',
        await db.knex('users').select('id', 'team_id'),
        ['posts'],
        relationMap,
        { maxEagerRows: POSTS },
      )
      expect(loaded.flatMap((user) => rowsOf(user.posts))).to.have.length(POSTS)
    })

    it('a maxEagerRows that is not a non-negative integer is a server error, thrown when the query is built', () => {
      expect(() => applyQuery(db, 'users', 'with[0]=posts', { maxEagerRows: -1 })).to.throw(
        Error,
        'maxEagerRows must be a non-negative integer',
      )
    })
  })
}
