import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'

/**
 * The library writes its clauses as SQL text, quoting identifiers itself through the knex client. The
 * text must be what knex would compile, also under a `wrapIdentifier` hook, and a hook that reads the
 * query context must be asked again for every query (no quoting is remembered across contexts).
 */

type Hook = NonNullable<Knex.Config['wrapIdentifier']>

const clientFor = (wrapIdentifier: Hook): Knex => knex({ client: 'pg', wrapIdentifier })
const REQUEST =
  'wheres[0][column]=name&wheres[0][value]=Eve&wheres[1][column]=posts.title&wheres[1][operator]=like&wheres[1][value]=%25a%25&orders[0][column]=name&limit=5'
const USER_COLUMNS = Object.keys(relationMap.users?.columns ?? {}).map((column) => `users.${column}`)

function handWritten(db: Knex): Knex.QueryBuilder {
  return db('users')
    .select(USER_COLUMNS)
    .where((where) =>
      where.where('users.name', '=', 'Eve').whereExists(function (this: Knex.QueryBuilder) {
        this.select(db.raw('1'))
          .from('posts')
          .whereRaw('?? = ??', ['posts.user_id', 'users.id'])
          .where('posts.title', 'ilike', '%a%')
      }),
    )
    .orderBy('users.name', 'asc')
    .orderBy('users.id', 'asc')
    .limit(5)
}

describe('applyQueryParams: identifiers quoted as knex quotes them', () => {
  it("follows the client's wrapIdentifier hook, giving knex's own SQL", () => {
    const db = clientFor((value, original) => original(value.toUpperCase()))
    const ours = applyQueryParams(db('users'), parseQueryParams(REQUEST), relationMap).toSQL()
    const hand = handWritten(db).toSQL()
    expect(ours.sql).to.equal(hand.sql)
    expect(ours.sql).to.contain('"USERS"."NAME" = ?')
    expect(ours.bindings).to.deep.equal(hand.bindings)
  })

  it('asks a hook that reads the query context again for every query', () => {
    const db = clientFor((value, original, context: { upper?: boolean } | undefined) =>
      original(context?.upper === true ? value.toUpperCase() : value),
    )
    const params = parseQueryParams(REQUEST)
    const upper = applyQueryParams(db('users').queryContext({ upper: true }), params, relationMap).toSQL().sql
    const lower = applyQueryParams(db('users').queryContext({ upper: false }), params, relationMap).toSQL().sql
    expect(upper).to.contain('"USERS"."NAME" = ?').and.contain('exists (select 1 from "POSTS"')
    expect(lower).to.contain('"users"."name" = ?').and.contain('exists (select 1 from "posts"')
  })

  it("refuses a relation map identifier containing '?', which raw SQL would read as a binding", () => {
    const map: RelationMap = { items: { columns: { id: 'integer', 'odd?': 'string' } } }
    const db = knex({ client: 'pg' })
    expect(() =>
      applyQueryParams(db('items'), parseQueryParams('wheres[0][column]=odd?&wheres[0][value]=x'), map).toSQL(),
    ).to.throw(Error, "the identifier 'odd?' contains '?'")
  })
})
