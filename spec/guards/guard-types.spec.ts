import { expect } from 'chai'
import knex from 'knex'
import { applyQueryParams } from '../../lib/index.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import type { Guard, RelationMap } from '../../lib/relation-map.ts'

interface Tenant {
  tenantId: number
}

const typed: RelationMap<Tenant> = {
  posts: {
    columns: { id: 'integer', tenant_id: 'integer' },
    // `context` is typed by the map: a typo or a wrong type does not compile.
    guard: (query, { table, context }) => {
      query.where(`${table}.tenant_id`, context.tenantId)
    },
  },
}

// @ts-expect-error a guard of an untyped map has an `unknown` context, which must be narrowed first
const untyped: Guard = (query, { context }) => void query.where('posts.tenant_id', context.tenantId)

describe('row guards: typing (checked by tsc; the calls build SQL only)', () => {
  const db = knex({ client: 'pg' })
  after(() => db.destroy())

  it('a map typed with its context is still a RelationMap, and options.context must have that type', () => {
    const map: RelationMap = typed
    expect(applyQueryParams(db('posts'), {}, typed, { context: { tenantId: 3 } }).toSQL().bindings).to.deep.equal([3])
    // @ts-expect-error the context does not match the map's guards
    applyQueryParams(db('posts'), {}, typed, { context: { tenantId: 'three' } })
    // @ts-expect-error neither does it for loadRelations
    void loadRelations(db, 'posts', [], [], typed, { context: { tenant: 3 } })
    expect(map.posts?.guard).to.be.a('function')
    expect(untyped).to.be.a('function')
  })
})
