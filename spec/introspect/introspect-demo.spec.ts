import { expect } from 'chai'
import { migrate } from '../../fixtures/migrate.ts'
import { relationMap as fixtureMap } from '../../fixtures/relation-map.ts'
import { seed } from '../../fixtures/seed.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import {
  introspectRelationMap,
  introspectRelationMapWithNotices,
} from '../../lib/introspect/introspect-relation-map.ts'
import { idsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'
import { addColumn, dropRelation, editableCopy, renameRelation, type EditableMap } from './support/map-differences.ts'

/**
 * `fixtures/relation-map.ts` changed only where the schema says something else, each difference with its reason.
 * Everything else must come out of the database exactly as the fixture declares it.
 */
function expectedFromFixture(): EditableMap {
  const tables = editableCopy(fixtureMap)
  // Migration 000008 adds a nullable `deleted_at` to the six resource tables; the fixture keeps it off the
  // allow-list (its guards filter on it), the schema has it.
  for (const table of ['teams', 'users', 'posts', 'comments', 'tags', 'images'])
    addColumn(tables, table, 'deleted_at', 'datetime')
  // Morph relations: no schema states them (images.imageable_type/imageable_id are plain columns).
  dropRelation(tables, 'users', 'avatar')
  dropRelation(tables, 'users', 'images')
  dropRelation(tables, 'posts', 'images')
  dropRelation(tables, 'images', 'imageable')
  // teams.owner_id has no foreign-key constraint (users and teams reference each other): no owner/ownedTeam.
  dropRelation(tables, 'teams', 'owner')
  dropRelation(tables, 'users', 'ownedTeam')
  // Names the fixture chose by meaning; the generator names a belongsTo after its key (user_id → user) and
  // a hasMany after the referencing table (users).
  renameRelation(tables, 'posts', 'author', 'user')
  renameRelation(tables, 'comments', 'author', 'user')
  renameRelation(tables, 'teams', 'members', 'users')
  return tables
}

for (const database of testDatabases()) {
  // A database of its own, holding only what the demo migrations create: other specs add tables to the shared one.
  describe(`introspectRelationMap on the demo migrations (${database.label})`, function () {
    this.timeout(60_000)
    let demo: TestDatabase

    before(async function () {
      this.timeout(120_000)
      demo = await freshDatabase(database, 'demo')
      await migrate(demo.knex)
      await seed(demo.knex)
    })

    after(async () => {
      await dropFreshDatabase(demo)
    })

    it('gives fixtures/relation-map.ts, but for the listed differences the schema really has', async () => {
      const { map, notices } = await introspectRelationMapWithNotices(demo.knex)
      expect(map).to.deep.equal(expectedFromFixture())
      expect(notices.map((notice) => `${notice.kind} ${notice.message}`)).to.deep.equal([
        'pivot-table post_tag: not exposed, a pivot table linking posts and tags (belongsToMany); set exposePivots to expose it',
        'secret-column users.password: left out, its name looks secret',
      ])
      expect(await checkRelationMap(demo.knex, map)).to.deep.equal([])
    })

    it('lists tables and relations in a stable order', async () => {
      const map = await introspectRelationMap(demo.knex, { naming: 'camel' })
      expect(Object.keys(map)).to.deep.equal(['comments', 'images', 'posts', 'tags', 'teams', 'users'])
      expect(Object.keys(map['users']?.relations ?? {})).to.deep.equal(['team', 'comments', 'posts'])
      expect(Object.keys(map['posts']?.relations ?? {})).to.deep.equal(['user', 'comments', 'tags'])
      expect(Object.keys(map['users']?.columns ?? {})).to.deep.equal([
        'id',
        'teamId',
        'name',
        'email',
        'isAdmin',
        'birthday',
        'score',
        'createdAt',
        'updatedAt',
        'deletedAt',
      ])
    })

    it('serves the same rows as the hand-written map, through generated relations', async () => {
      const map = await introspectRelationMap(demo.knex)
      const query =
        'wheres[0][column]=user.name&wheres[0][operator]=like&wheres[0][value]=%a%&wheres[1][column]=tags.name&wheres[1][operator]=!=&wheres[1][value]=zzz&orders[0][column]=id&limit=20'
      const fixtureQuery = query.replace('user.name', 'author.name')
      const generated = idsOf(await applyQueryParams(demo.knex('posts'), parseQueryParams(query), map))
      const handWritten = idsOf(await applyQueryParams(demo.knex('posts'), parseQueryParams(fixtureQuery), fixtureMap))
      expect(generated.length).to.be.greaterThan(0)
      expect(generated).to.deep.equal(handWritten)
    })
  })
}
