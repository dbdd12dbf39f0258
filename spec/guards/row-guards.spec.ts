import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import type { Guard, RelationMap } from '../../lib/relation-map.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { TENANT, visibleTo, type TenantRow, type TenantTable } from './support/tenant-data.ts'
import { orGuard, tenantGuard, tenantMap, type TenantContext } from './support/tenant-map.ts'
import { BOTH, DATA, tenantTables } from './support/tenant-tables.ts'

type Rows = Array<Record<string, unknown>>

const guardedMap = tenantMap(BOTH, tenantGuard)
const unguardedMap = tenantMap(BOTH)
const context = { tenantId: TENANT }

const rowsOf = (value: unknown): Rows => value as Rows
const idsOf = (value: unknown): number[] => rowsOf(value).map((row) => Number(row.id))
const sorted = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b)
const byId = (table: TenantTable): Map<number, TenantRow> => new Map(DATA[table].map((row) => [Number(row.id), row]))
const visible = (table: TenantTable): TenantRow[] => DATA[table].filter((row) => visibleTo(row))
const visibleIds = (table: TenantTable): Set<number> => new Set(visible(table).map((row) => Number(row.id)))
const isVisible = (table: TenantTable, id: unknown): boolean => id !== null && visibleIds(table).has(Number(id))

/** Every object in a result that carries `tenant_id` belongs to the tenant. */
function expectOnlyTenant(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(expectOnlyTenant)
  if (typeof value !== 'object' || value === null) return
  const row = value as Record<string, unknown>
  if ('tenant_id' in row) expect(Number(row.tenant_id), `row ${JSON.stringify(row).slice(0, 120)}`).to.equal(TENANT)
  Object.values(row).forEach(expectOnlyTenant)
}

function guarded(
  db: TestDatabase,
  table: TenantTable,
  query: string,
  map: RelationMap<TenantContext> = guardedMap,
): Knex.QueryBuilder {
  return applyQueryParams(db.knex(`${BOTH}${table}`), parseQueryParams(query), map, { context })
}

/** A map whose tables all carry `guard` (and only those in `tables`, when given). */
function mapWith(guard: Guard<TenantContext>, tables?: readonly TenantTable[]): RelationMap<TenantContext> {
  const map = tenantMap(BOTH)
  for (const [name, definition] of Object.entries(map)) {
    if (tables === undefined || tables.some((table) => `${BOTH}${table}` === name)) definition.guard = guard
  }
  return map
}

const throwing: Guard<TenantContext> = () => {
  throw new TypeError('no tenant in this context')
}

for (const db of testDatabases()) {
  describe(`row guards on every path (${db.name})`, () => {
    before(async function () {
      this.timeout(60_000)
      await tenantTables(db)
    })

    describe('base table', () => {
      it('applies the guard as one group before the client conditions: only visible rows, the caller repeats nothing', async () => {
        const query = guarded(
          db,
          'posts',
          'wheres[0][column]=id&wheres[0][operator]=%3E&wheres[0][value]=0&wheres[0][boolean]=or',
        )
        const { sql, bindings } = query.toSQL()
        expect(sql).to.match(/ where \(\S+tenant_id\S* = \S+ and \S+deleted_at\S* is null\) and \(/)
        expect(bindings[0]).to.equal(TENANT)
        expect(sorted(idsOf(await query))).to.deep.equal(sorted(visibleIds('posts')))
      })

      it("a guard's or never widens: the or-guard gives the same rows, inside one group", async () => {
        const query = guarded(
          db,
          'posts',
          'wheres[0][column]=views&wheres[0][operator]=%3E&wheres[0][value]=50',
          mapWith(orGuard),
        )
        expect(query.toSQL().sql).to.match(/ where \(\S+deleted_at\S* is null and \S+tenant_id\S* = \S+ or \(/)
        const expected = visible('posts')
          .filter((post) => Number(post.views) > 50)
          .map((post) => Number(post.id))
        expect(sorted(idsOf(await query))).to.deep.equal(sorted(expected))
      })

      it('countQuery and paginate count only the rows the guard lets through', async () => {
        const query = guarded(db, 'comments', 'limit=5&page=2')
        const [counted] = (await countQuery(query)) as Array<{ total: unknown }>
        expect(Number(counted?.total)).to.equal(visible('comments').length)
        const page = await paginate(query, { page: 2, limit: 5 })
        expect(page.meta.total).to.equal(visible('comments').length)
        expect(page.data.map((row) => Number((row as { id: unknown }).id))).to.deep.equal(
          sorted(visibleIds('comments')).slice(5, 10),
        )
      })

      it('a guard that adds nothing adds no SQL, on the base query and in every subquery', () => {
        const request =
          'wheres[0][column]=posts.comments.body&wheres[0][value]=x&orders[0][column]=team.name&relationsExists[0]=images'
        const empty = mapWith(() => {})
        const plain = applyQueryParams(db.knex(`${BOTH}users`), parseQueryParams(request), unguardedMap)
        expect(guarded(db, 'users', request, empty).toSQL().sql).to.equal(plain.toSQL().sql)
      })
    })

    describe('relation filters and relationsExists, at every hop', () => {
      it('users?wheres[0][column]=posts.title like %merger% matches only through posts the caller may see', async () => {
        const hidden = DATA.posts.filter(
          (post) => !visibleTo(post) && String(post.title).includes('merger') && isVisible('users', post.user_id),
        )
        expect(hidden, 'the data set has a hidden merger post of a visible user').to.not.be.empty
        const query = guarded(
          db,
          'users',
          'wheres[0][column]=posts.title&wheres[0][operator]=like&wheres[0][value]=%25merger%25',
        )
        const authors = new Set(
          visible('posts')
            .filter((post) => String(post.title).includes('merger'))
            .map((post) => Number(post.user_id)),
        )
        expect(sorted(idsOf(await query))).to.deep.equal(
          sorted([...visibleIds('users')].filter((id) => authors.has(id))),
        )
      })

      it('guards every hop and names a repeated table by its alias (users → posts → author as users_2)', async () => {
        const query = guarded(
          db,
          'users',
          'wheres[0][column]=posts.author.score&wheres[0][operator]=%3E%3D&wheres[0][value]=0',
        )
        expect(query.toSQL().sql).to.match(/guard_users_2\S* ?\.\S*tenant_id/)
        const users = byId('users')
        const expected = visible('users').filter((user) =>
          visible('posts').some(
            (post) =>
              post.user_id === user.id &&
              isVisible('users', post.user_id) &&
              Number(users.get(Number(post.user_id))?.score) >= 0,
          ),
        )
        expect(sorted(idsOf(await query))).to.deep.equal(sorted(expected.map((user) => Number(user.id))))
      })

      it('relationsExists through belongsToMany checks the related row and the guarded pivot', async () => {
        const posts = visibleIds('posts')
        const tags = visibleIds('tags')
        const links = visible('post_tag').filter(
          (link) => posts.has(Number(link.post_id)) && tags.has(Number(link.tag_id)),
        )
        const hiddenLink = DATA.post_tag.some(
          (link) => !visibleTo(link) && posts.has(Number(link.post_id)) && tags.has(Number(link.tag_id)),
        )
        const hiddenTarget = DATA.post_tag.some((link) => visibleTo(link) && !tags.has(Number(link.tag_id)))
        expect(
          hiddenLink || hiddenTarget,
          'the data set links visible posts through hidden links or to hidden tags',
        ).to.equal(true)
        const expected = new Set(links.map((link) => Number(link.post_id)))
        expect(sorted(idsOf(await guarded(db, 'posts', 'relationsExists[0]=tags')))).to.deep.equal(sorted(expected))
      })

      it('a filter written key first (equality on the related key) keeps the related guard in the key subquery and the pivot guard', async () => {
        const posts = visibleIds('posts')
        const tags = visibleIds('tags')
        for (const tag of DATA.tags) {
          const query = guarded(
            db,
            'posts',
            `wheres[0][column]=tags.id&wheres[0][value]=${String(tag.id)}&orders[0][column]=id&limit=50`,
          )
          expect(query.toSQL().sql).to.match(/tag_id\S* = \(select .*tenant_id/)
          const expected = visible('post_tag').filter(
            (link) =>
              Number(link.tag_id) === Number(tag.id) &&
              posts.has(Number(link.post_id)) &&
              tags.has(Number(link.tag_id)),
          )
          expect(idsOf(await query), `tag ${String(tag.id)}`).to.deep.equal(
            sorted(new Set(expected.map((link) => Number(link.post_id)))),
          )
        }
        for (const user of DATA.users) {
          const query = guarded(
            db,
            'posts',
            `wheres[0][column]=author.id&wheres[0][value]=${String(user.id)}&orders[0][column]=id&limit=50`,
          )
          expect(query.toSQL().sql).to.match(/user_id\S* = \(select .*tenant_id/)
          const expected = visible('posts').filter(
            (post) => Number(post.user_id) === Number(user.id) && isVisible('users', post.user_id),
          )
          expect(idsOf(await query), `user ${String(user.id)}`).to.deep.equal(
            sorted(expected.map((post) => Number(post.id))),
          )
        }
      })

      it('relationsExists through morphTo guards each target table', async () => {
        const expected = visible('images').filter((image) =>
          isVisible(image.imageable_type === 'User' ? 'users' : 'posts', image.imageable_id),
        )
        expect(expected.length).to.be.below(visible('images').length)
        expect(sorted(idsOf(await guarded(db, 'images', 'relationsExists[0]=imageable')))).to.deep.equal(
          sorted(expected.map((image) => Number(image.id))),
        )
      })
    })

    describe('eager loading, at every level', () => {
      it('tags?with[0]=posts returns none of the other tenant’s or deleted posts (pivot guarded too)', async () => {
        const tags = rowsOf(await guarded(db, 'tags', 'with[0]=posts'))
        expectOnlyTenant(tags)
        const posts = visibleIds('posts')
        for (const tag of tags) {
          const expected = visible('post_tag')
            .filter((link) => link.tag_id === tag.id && posts.has(Number(link.post_id)))
            .map((link) => Number(link.post_id))
          expect(idsOf(tag.posts), `tag ${String(tag.id)}`).to.deep.equal(sorted(new Set(expected)))
        }
      })

      it('posts/:id?with[0]=author.posts does not return the author’s hidden posts', async () => {
        const post = visible('posts').find(
          (candidate) =>
            isVisible('users', candidate.user_id) &&
            DATA.posts.some((other) => other.user_id === candidate.user_id && !visibleTo(other)),
        )
        expect(post, 'a visible post whose author has hidden posts').to.not.equal(undefined)
        const [row] = rowsOf(
          await guarded(db, 'posts', `wheres[0][column]=id&wheres[0][value]=${String(post?.id)}&with[0]=author.posts`),
        )
        const author = row?.author as Record<string, unknown>
        expect(Number(author.id)).to.equal(Number(post?.user_id))
        expect(idsOf(author.posts)).to.deep.equal(
          sorted(
            visible('posts')
              .filter((other) => other.user_id === post?.user_id)
              .map((other) => Number(other.id)),
          ),
        )
      })

      it('a cross-tenant or deleted belongsTo / morphTo target loads as null, at two levels', async () => {
        const comments = rowsOf(await guarded(db, 'comments', 'with[0]=post.author&with[1]=author'))
        expectOnlyTenant(comments)
        const posts = byId('posts')
        let hiddenSeen = 0
        for (const comment of comments) {
          if (isVisible('posts', comment.post_id)) {
            const post = comment.post as Record<string, unknown>
            expect(Number(post.id)).to.equal(Number(comment.post_id))
            expect(post.author === null).to.equal(
              !isVisible('users', posts.get(Number(comment.post_id))?.user_id ?? null),
            )
          } else {
            hiddenSeen++
            expect(comment.post).to.equal(null)
          }
          expect(comment.author === null).to.equal(!isVisible('users', comment.user_id))
        }
        expect(hiddenSeen).to.be.above(0)
        const images = rowsOf(await guarded(db, 'images', 'with[0]=imageable'))
        for (const image of images) {
          const target = image.imageable_type === 'User' ? 'users' : 'posts'
          expect(image.imageable === null, `image ${String(image.id)}`).to.equal(!isVisible(target, image.imageable_id))
        }
      })

      it('with[0]=* on users: every relation guarded, and no extra query (1 + 6 either way)', async () => {
        const plain = await countQueries(db.knex, () =>
          applyQueryParams(db.knex(`${BOTH}users`), parseQueryParams('with[0]=*'), unguardedMap),
        )
        const { result, queries } = await countQueries(db.knex, () => guarded(db, 'users', 'with[0]=*'))
        expect(queries).to.have.length(plain.queries.length).and.to.have.length(7)
        expectOnlyTenant(result)
        for (const user of rowsOf(result)) {
          expect(sorted(idsOf(user.posts))).to.deep.equal(
            sorted(
              visible('posts')
                .filter((post) => post.user_id === user.id)
                .map((post) => Number(post.id)),
            ),
          )
          expect(user.team === null).to.equal(!isVisible('teams', user.team_id))
        }
      })

      it('loadRelations takes the context too', async () => {
        const users = (await db.knex(`${BOTH}users`).select('id', 'team_id').orderBy('id')) as Rows
        await loadRelations(db.knex, `${BOTH}users`, users, ['posts', 'team'], guardedMap, { context })
        for (const user of users) {
          expectOnlyTenant(user.posts)
          expect(user.team === null).to.equal(!isVisible('teams', user.team_id))
        }
      })
    })

    describe('relation orders', () => {
      it('a hidden related row orders as NULL (posts by author.name: posts of hidden authors first, then last)', async () => {
        const hidden = visible('posts')
          .filter((post) => !isVisible('users', post.user_id))
          .map((post) => Number(post.id))
        expect(hidden, 'visible posts whose author is hidden').to.not.be.empty
        const ascending = idsOf(await guarded(db, 'posts', 'orders[0][column]=author.name&orders[1][column]=id'))
        expect(ascending.slice(0, hidden.length)).to.deep.equal(sorted(hidden))
        const descending = idsOf(
          await guarded(db, 'posts', 'orders[0][column]=author.name&orders[0][direction]=desc&orders[1][column]=id'),
        )
        expect(descending.slice(-hidden.length)).to.deep.equal(sorted(hidden))
      })

      it('relation orders and filters add no query', async () => {
        const request =
          'orders[0][column]=author.team.name&wheres[0][column]=comments.author.name&wheres[0][operator]=like&wheres[0][value]=%25a%25'
        const { queries } = await countQueries(db.knex, () => guarded(db, 'posts', request))
        expect(queries).to.have.length(1)
      })
    })

    describe('a broken guard is a server bug (plain Error), never a 400', () => {
      const isServerError = (error: unknown, table: string): void => {
        expect(error).to.be.instanceOf(Error).and.not.instanceOf(QueryParamsError)
        expect((error as Error).message)
          .to.include(`${BOTH}${table}.guard`)
          .and.include('no tenant in this context')
      }

      it('on the base table and in a relation filter: applyQueryParams throws', () => {
        expect(() => guarded(db, 'posts', '', mapWith(throwing, ['posts']))).to.throw(Error, `${BOTH}posts.guard`)
        try {
          guarded(db, 'posts', 'wheres[0][column]=author.name&wheres[0][value]=x', mapWith(throwing, ['users']))
          expect.fail('expected the guard to throw')
        } catch (error) {
          isServerError(error, 'users')
        }
      })

      it('in eager loading: the query rejects', async () => {
        try {
          await guarded(db, 'posts', 'with[0]=comments', mapWith(throwing, ['comments']))
          expect.fail('expected the guard to throw')
        } catch (error) {
          isServerError(error, 'comments')
        }
      })

      it('a guard that adds anything but where conditions is rejected', () => {
        const joining = mapWith((query) => void query.join('elsewhere', 'a', 'b'), ['posts'])
        expect(() => guarded(db, 'posts', '', joining)).to.throw(Error, /only add where conditions/)
      })
    })
  })
}
