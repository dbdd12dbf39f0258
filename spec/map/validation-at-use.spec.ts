import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { errorResponse } from '../../lib/http/error-response.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'

/** A map as a JavaScript user might write it, without `defineRelationMap`: fresh on every call. */
function plainMap(): RelationMap {
  return {
    users: {
      columns: { id: 'integer', name: 'string' },
      relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
    },
    posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
  }
}

/** `plainMap()` with the `posts` relation typed `hasmany`, as the issue reports it. */
function typoMap(): RelationMap {
  const map = plainMap() as unknown as { users: { relations: { posts: { type: string } } } }
  map.users.relations.posts.type = 'hasmany'
  return map as unknown as RelationMap
}

const TYPO =
  "knex-query-params: users.relations.posts.type: 'hasmany' is not a relation type; expected one of belongsTo, hasOne, hasMany, belongsToMany, morphOne, morphMany, morphTo (did you mean 'hasMany'?)"

/** Runs `run`, expects a plain `Error` (a server bug, no `QueryParamsError`, no 400 response) and returns it. */
function configurationError(run: () => unknown): Error {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  expect(thrown).to.be.instanceOf(Error)
  expect(thrown).not.to.be.instanceOf(QueryParamsError)
  expect(errorResponse(thrown), 'errorResponse answers no 400 for it').to.equal(undefined)
  return thrown as Error
}

/** Counts `ownKeys` reads of the map object itself: validating walks its tables, building a query never lists them. */
function countingKeyReads(map: RelationMap): { map: RelationMap; reads: () => number } {
  let reads = 0
  const proxy = new Proxy(map, {
    ownKeys(target) {
      reads++
      return Reflect.ownKeys(target)
    },
  })
  return { map: proxy, reads: () => reads }
}

for (const db of testDatabases()) {
  describe(`relation map validation where the map is used (${db.name})`, () => {
    it('applyQueryParams rejects a map with a typo as a plain Error naming the path, before any query', async () => {
      const { queries } = await countQueries(db.knex, async () => {
        const error = configurationError(() =>
          applyQueryParams(db.knex('users'), parseQueryParams('with[0]=posts'), typoMap()),
        )
        expect(error.message).to.equal(TYPO)
      })
      expect(queries).to.deep.equal([])
    })

    it('applyQueryParams rejects a bad map whatever the request touches, even an empty one', () => {
      expect(configurationError(() => applyQueryParams(db.knex('users'), {}, typoMap())).message).to.equal(TYPO)
    })

    it('an unknown column type is a plain Error, no longer a 400 for the client', () => {
      const map = plainMap()
      ;(map.users as { columns: Record<string, unknown> }).columns.name = 'text'
      const params = parseQueryParams('wheres[0][column]=name&wheres[0][operator]=%3D&wheres[0][value]=Ada')
      expect(configurationError(() => applyQueryParams(db.knex('users'), params, map)).message).to.equal(
        "knex-query-params: users.columns.name: 'text' is not a column type; expected one of string, integer, number, boolean, date, datetime, bigint, decimal, json",
      )
    })

    it('a missing foreignKey is a plain Error, not a database error', () => {
      const map = plainMap() as unknown as { users: { relations: { posts: Record<string, unknown> } } }
      delete map.users.relations.posts.foreignKey
      expect(
        configurationError(() =>
          applyQueryParams(db.knex('users'), parseQueryParams('with[0]=posts'), map as unknown as RelationMap),
        ).message,
      ).to.equal(
        'knex-query-params: users.relations.posts.foreignKey: missing; a hasMany relation needs table, foreignKey',
      )
    })

    it('loadRelations rejects a bad map as a plain Error, before any query', async () => {
      const { queries } = await countQueries(db.knex, async () => {
        let thrown: unknown
        await loadRelations(db.knex, 'users', [{ id: 1 }], ['posts'], typoMap()).catch((error: unknown) => {
          thrown = error
        })
        expect(
          configurationError(() => {
            throw thrown
          }).message,
        ).to.equal(TYPO)
      })
      expect(queries).to.deep.equal([])
    })

    it('validates each map object once: later calls do not walk it again', async () => {
      const { map, reads } = countingKeyReads(plainMap())
      const params = parseQueryParams(
        'wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25a%25&with[0]=posts',
      )
      await applyQueryParams(db.knex('users'), params, map)
      const afterFirst = reads()
      expect(afterFirst).to.be.greaterThan(0)
      await applyQueryParams(db.knex('users'), params, map)
      await applyQueryParams(db.knex('users'), params, map)
      await loadRelations(db.knex, 'users', [{ id: 1 }], ['posts'], map)
      expect(reads()).to.equal(afterFirst)
    })

    it('remembers the object, not its contents: a table added after the first use is not checked, a copy is', () => {
      const map = plainMap()
      applyQueryParams(db.knex('users'), {}, map)
      ;(map as Record<string, unknown>).broken = { columns: {} }
      expect(() => applyQueryParams(db.knex('users'), {}, map)).not.to.throw()
      expect(configurationError(() => applyQueryParams(db.knex('users'), {}, { ...map })).message).to.equal(
        "knex-query-params: broken.primaryKey: the primary key 'id' is not among the columns of broken; declare the key column in columns, and name it in primaryKey if it is not 'id'",
      )
    })

    it('does not remember a map that failed: every call with it throws', () => {
      const map = typoMap()
      expect(configurationError(() => applyQueryParams(db.knex('users'), {}, map)).message).to.equal(TYPO)
      expect(configurationError(() => applyQueryParams(db.knex('users'), {}, map)).message).to.equal(TYPO)
    })

    it('a map from defineRelationMap is not checked again by applyQueryParams or loadRelations', async () => {
      const { map, reads } = countingKeyReads(plainMap())
      const defined = defineRelationMap(map)
      const afterDefine = reads()
      expect(afterDefine).to.be.greaterThan(0)
      await applyQueryParams(db.knex('users'), parseQueryParams('with[0]=posts'), defined)
      await loadRelations(db.knex, 'users', [{ id: 1 }], ['posts'], defined)
      expect(reads()).to.equal(afterDefine)
    })

    it('the fixture map (from defineRelationMap) serves requests and eager loading as before', async () => {
      const rows = await applyQueryParams(
        db.knex('users'),
        parseQueryParams('wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=1&with[0]=posts&columns[0]=id'),
        relationMap,
      )
      const loaded = await loadRelations(db.knex, 'users', [{ id: 1 }], ['posts'], relationMap)
      expect(rows).to.have.length(1)
      expect(rows[0]).to.have.property('posts').that.is.an('array')
      expect(loaded[0]?.posts?.map((post) => post.id)).to.deep.equal(
        (rows[0] as { posts: Array<{ id: number }> }).posts.map((post) => post.id),
      )
    })
  })
}
