import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { countQueries } from '../support/count-queries.ts'
import { applyQuery, idsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

for (const db of testDatabases()) {
  describe(`orders by a to-one related column (${db.name})`, () => {
    it('belongsTo team.name, users without a team first (NULLs smallest), tie-broken by id', async () => {
      const query = applyQuery(db, 'users', 'orders[0][column]=team.name&limit=12')
      expectSql(db.name, 'relations/order/belongsTo', query)
      expect(idsOf(await query)).to.deep.equal([4, 8, 12, 2, 3, 9, 6, 7, 11, 1, 5, 10])
    })

    it('belongsTo team.name descending, NULLs last, tie-broken by id in the same direction', async () => {
      expect(
        idsOf(await applyQuery(db, 'users', 'orders[0][column]=team.name&orders[0][direction]=desc&limit=12')),
      ).to.deep.equal([10, 5, 1, 11, 7, 6, 9, 3, 2, 12, 8, 4])
    })

    it('nested belongsTo team.owner.name', async () => {
      const query = applyQuery(db, 'users', 'orders[0][column]=team.owner.name&limit=12')
      expectSql(db.name, 'relations/order/team.owner.name', query)
      expect(idsOf(await query)).to.deep.equal([4, 6, 7, 8, 11, 12, 1, 5, 10, 2, 3, 9])
    })

    it('hasOne ownedTeam.name', async () => {
      expect(idsOf(await applyQuery(db, 'users', 'orders[0][column]=ownedTeam.name&limit=12'))).to.deep.equal([
        2, 4, 6, 7, 8, 9, 10, 11, 12, 3, 1, 5,
      ])
    })

    it('morphOne avatar.url (the lowest-id image of the user), users without one last, by id descending', async () => {
      const query = applyQuery(db, 'users', 'orders[0][column]=avatar.url&orders[0][direction]=desc&limit=12')
      expectSql(db.name, 'relations/order/morphOne', query)
      expect(idsOf(await query)).to.deep.equal([5, 3, 1, 12, 11, 10, 9, 8, 7, 6, 4, 2])
    })

    it('belongsTo author.name from posts, with an own column as second order, never multiplying rows', async () => {
      const query = applyQuery(
        db,
        'posts',
        'orders[0][column]=author.email&orders[1][column]=views&orders[1][direction]=desc&wheres[0][column]=user_id&wheres[0][operator]=in&wheres[0][value][0]=2&wheres[0][value][1]=3&wheres[0][value][2]=5',
      )
      expect(idsOf(await query)).to.deep.equal([6, 7, 8, 9, 10, 11, 13, 15, 14, 16])
    })

    it('a to-many relation is a 400 saying why (invalid_order)', () => {
      const error = expectQueryParamsError(
        () => applyQuery(db, 'users', 'orders[0][column]=id&orders[1][column]=posts.title'),
        {
          code: 'invalid_order',
          param: 'orders[1][column]',
        },
      )
      expect(error.message).to.include('hasMany')
      expectQueryParamsError(() => applyQuery(db, 'posts', 'orders[0][column]=tags.name'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=images.url'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=team.members.name'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
      })
    })

    it('a morphTo relation is a 400 (invalid_order): its table depends on the row', () => {
      expectQueryParamsError(() => applyQuery(db, 'images', 'orders[0][column]=imageable.created_at'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
      })
    })

    it('an unknown relation or column is unknown_relation / unknown_column', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=friend.name'), {
        code: 'unknown_relation',
        param: 'orders[0][column]',
        allowed: ['team', 'posts', 'comments', 'ownedTeam', 'avatar', 'images'],
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'orders[0][column]=team.budget'), {
        code: 'unknown_column',
        param: 'orders[0][column]',
        allowed: ['id', 'name', 'owner_id', 'created_at', 'updated_at'],
      })
    })

    it('hasOne / morphOne: the lowest-keyed visible related row, read from a join built once (one query, no per-row subquery)', async () => {
      const images = (await db
        .knex('images')
        .where('imageable_type', 'User')
        .select('id', 'imageable_id', 'url')) as Array<{ id: number; imageable_id: number; url: string }>
      const hidden = new Set(images.filter((_, index) => index % 2 === 0).map((image) => Number(image.id)))
      const guarded: RelationMap = {
        ...relationMap,
        images: {
          ...relationMap.images,
          guard: (query, { table }) => void query.whereNotIn(`${table}.id`, [...hidden]),
        },
      }
      const first = new Map<number, { id: number; url: string }>()
      for (const image of images) {
        const known = first.get(Number(image.imageable_id))
        if (!hidden.has(Number(image.id)) && (known === undefined || Number(image.id) < known.id))
          first.set(Number(image.imageable_id), { id: Number(image.id), url: image.url })
      }
      const users = ((await db.knex('users').select('id')) as Array<{ id: number }>).map((user) => Number(user.id))
      const url = (id: number): string | undefined => first.get(id)?.url
      const expected = [...users].sort((a, b) => {
        const [x, y] = [url(a), url(b)]
        if (x === y) return a - b
        if (x === undefined) return -1
        if (y === undefined) return 1
        return x < y ? -1 : 1
      })
      const query = applyQueryParams(
        db.knex('users'),
        parseQueryParams('orders[0][column]=avatar.url&limit=50'),
        guarded,
      )
      expect(query.toSQL().sql).to.include(' group by ')
      expect(query.toSQL().sql).to.not.include('limit ?)')
      const { result, queries } = await countQueries(db.knex, () => query)
      expect(queries).to.have.length(1)
      expect(idsOf(result)).to.deep.equal(expected)
    })
  })
}
