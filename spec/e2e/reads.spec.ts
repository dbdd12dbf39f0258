import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from './support/demo-client.ts'
import { fixtureIds, idsOf, iso, post, sortedIdsOf, user, type ListBody, type RecordBody } from './support/expected.ts'

const { users, posts, comments, images } = demoData

type Row = Record<string, unknown>

for (const db of testDatabases()) {
  describe(`e2e reads on ${db.label}`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    describe('with', () => {
      it('eager-loads to-one and to-many relations on a list', async () => {
        const { status, body } = await demo.client.get<ListBody>('/users', {
          wheres: [{ column: 'id', operator: 'in', value: [1, 4], boolean: 'and' }],
          with: ['team', 'posts'],
        })
        expect(status).to.equal(200)
        const byId = new Map(body.data.map((row) => [Number(row.id), row]))
        const alice = byId.get(1) as Row
        expect((alice.team as Row).name).to.equal('Platform')
        expect((alice.posts as Row[]).map((p) => p.id).sort((a, b) => Number(a) - Number(b))).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 1),
        )
        const dave = byId.get(4) as Row
        expect(dave.team).to.equal(null)
        expect(dave.posts as Row[]).to.have.length(1)
      })

      it('loads nested paths on one record: GET /posts/1?with[0]=comments.author', async () => {
        const { status, body } = await demo.client.get<RecordBody>('/posts/1', { with: ['comments.author'] })
        expect(status).to.equal(200)
        const loaded = body.data.comments as Row[]
        expect(loaded.map((c) => c.id).sort((a, b) => Number(a) - Number(b))).to.deep.equal(
          fixtureIds(comments, (c) => c.post_id === 1),
        )
        for (const comment of loaded) {
          expect((comment.author as Row).id).to.equal(comment.user_id)
          expect(comment.author as Row).not.to.have.property('password')
        }
      })

      it('loads a morphTo the way the client does: GET /images/9?with[0]=imageable', async () => {
        const { status, body } = await demo.client.get<RecordBody>('/images/9', { with: ['imageable'] })
        expect(status).to.equal(200)
        expect(body.data.imageable).to.include({ id: 7, title: post(7).title })
      })

      it('a morphTo whose type column is not selected still comes back serialised', async () => {
        const { body } = await demo.client.get<RecordBody>('/images/9', { columns: ['id', 'url'], with: ['imageable'] })
        expect(Object.keys(body.data).sort()).to.deep.equal(['id', 'imageable', 'url'])
        expect(body.data.imageable).to.include({ id: 7, published: true, created_at: iso(post(7).created_at) })
      })

      it('with[0]=* loads every relation of the resource', async () => {
        const { status, body } = await demo.client.get<RecordBody>('/users/5', { with: ['*'] })
        expect(status).to.equal(200)
        expect(body.data).to.include.all.keys(Object.keys(relationMap.users.relations))
        expect((body.data.images as Row[]).map((i) => i.id).sort()).to.deep.equal(
          fixtureIds(images, (i) => i.imageable_type === 'User' && i.imageable_id === 5),
        )
        expect((body.data.avatar as Row).imageable_id).to.equal(5)
        expect((body.data.ownedTeam as Row).id).to.equal(4)
      })

      it('* on a morphTo resource loads the polymorphic parent', async () => {
        const { body } = await demo.client.get<ListBody>('/images', {
          with: ['*'],
          orders: [{ column: 'id', direction: 'asc' }],
        })
        for (const image of body.data) {
          const parent = image.imageable as Row
          expect(parent.id).to.equal(image.imageable_id)
          if (image.imageable_type === 'User') expect(parent.name).to.equal(user(Number(parent.id)).name)
          else expect(parent.title).to.equal(post(Number(parent.id)).title)
        }
      })
    })

    describe('columns', () => {
      it('selects only the listed columns', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', {
          columns: ['id', 'title'],
          wheres: [{ column: 'id', operator: '=', value: 3, boolean: 'and' }],
        })
        expect(body.data).to.deep.equal([{ id: 3, title: post(3).title }])
      })

      it('accepts camelCase names, as refresh() sends them, and keeps the keys the relations need out of the row', async () => {
        const { body } = await demo.client.get<RecordBody>('/users/1', { columns: ['id', 'createdAt'], with: ['team'] })
        expect(Object.keys(body.data).sort()).to.deep.equal(['created_at', 'id', 'team'])
        expect(body.data.created_at).to.equal(iso(user(1).created_at))
        expect((body.data.team as Row).id).to.equal(2)
      })

      it('never returns a column outside the allow-list', async () => {
        const { body } = await demo.client.get<ListBody>('/users', { limit: 3 })
        for (const row of body.data) expect(row).to.have.all.keys(Object.keys(relationMap.users.columns))
      })

      it('returns the same values on every database: booleans, ISO timestamps, dates, numbers', async () => {
        const { body } = await demo.client.get<RecordBody>('/users/1')
        const alice = user(1)
        expect(body.data).to.deep.equal({
          id: 1,
          team_id: alice.team_id,
          name: alice.name,
          email: alice.email,
          is_admin: true,
          birthday: alice.birthday,
          score: alice.score,
          created_at: iso(alice.created_at),
          updated_at: iso(alice.updated_at),
        })
      })
    })

    describe('distinct', () => {
      it('returns unique rows by the distinct columns', async () => {
        const { body } = await demo.client.get<ListBody<{ user_id: number }>>('/posts', {
          distinct: ['user_id'],
          orders: [{ column: 'user_id', direction: 'asc' }],
        })
        expect(body.data.map((row) => row.user_id)).to.deep.equal(
          [...new Set(posts.map((p) => p.user_id))].sort((a, b) => a - b),
        )
        expect(body.data[0]).to.have.all.keys('user_id')
      })

      it('with columns, on the pair', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', { distinct: ['user_id'], columns: ['published'] })
        const pairs = new Set(posts.map((p) => `${p.user_id}/${p.published}`))
        expect(body.data).to.have.length(pairs.size)
      })
    })

    describe('orders, limit and offset', () => {
      it('orders by several columns, NULLs first ascending and last descending', async () => {
        const { body } = await demo.client.get<ListBody>('/users', {
          orders: [
            { column: 'score', direction: 'desc' },
            { column: 'id', direction: 'asc' },
          ],
        })
        const expected = [...users].sort((a, b) =>
          a.score === b.score ? a.id - b.id : a.score === null ? 1 : b.score === null ? -1 : b.score - a.score,
        )
        expect(idsOf(body)).to.deep.equal(expected.map((u) => u.id))
      })

      it('orders as latest() does (created_at desc)', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', {
          orders: [{ column: 'created_at', direction: 'desc' }],
          limit: 3,
        })
        const expected = [...posts].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, 3)
        expect(idsOf(body)).to.deep.equal(expected.map((p) => p.id))
      })

      it('orders by a related column', async () => {
        const { body } = await demo.client.get<ListBody>('/users', {
          orders: [
            { column: 'team.created_at', direction: 'asc' },
            { column: 'id', direction: 'asc' },
          ],
        })
        const teamCreated = new Map(demoData.teams.map((t) => [t.id, t.created_at]))
        const key = (u: (typeof users)[number]): string =>
          u.team_id === null ? '' : (teamCreated.get(u.team_id) ?? '')
        const expected = [...users].sort((a, b) => key(a).localeCompare(key(b)) || a.id - b.id)
        expect(idsOf(body)).to.deep.equal(expected.map((u) => u.id))
      })

      it('limit and offset', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', {
          orders: [{ column: 'id', direction: 'asc' }],
          limit: 4,
          offset: 2,
        })
        expect(idsOf(body)).to.deep.equal([3, 4, 5, 6])
      })

      it('offset without limit', async () => {
        const { status, body } = await demo.client.get<ListBody>('/users', { offset: 9 })
        expect(status).to.equal(200)
        expect(idsOf(body)).to.deep.equal([10, 11, 12])
      })
    })

    describe('pagination', () => {
      it('page and limit give data and Laravel meta', async () => {
        const { status, body } = await demo.client.get<ListBody>('/posts', {
          page: 2,
          limit: 5,
          orders: [{ column: 'id', direction: 'asc' }],
        })
        expect(status).to.equal(200)
        expect(idsOf(body)).to.deep.equal([6, 7, 8, 9, 10])
        expect(body.meta).to.deep.equal({
          current_page: 2,
          per_page: 5,
          total: posts.length,
          last_page: Math.ceil(posts.length / 5),
          from: 6,
          to: 10,
        })
      })

      it('counts the filtered rows, not the page, and not the eager-loaded ones', async () => {
        const published = fixtureIds(posts, (p) => p.published)
        const { body } = await demo.client.get<ListBody>('/posts', {
          page: 1,
          limit: 4,
          scopes: ['published'],
          with: ['comments'],
        })
        expect(body.data).to.have.length(4)
        expect(sortedIdsOf(body).every((id) => published.includes(id))).to.equal(true)
        expect(body.meta).to.include({
          total: published.length,
          last_page: Math.ceil(published.length / 4),
          from: 1,
          to: 4,
        })
      })

      it('the last page is partial; past it the page is empty', async () => {
        const last = await demo.client.get<ListBody>('/users', { page: 3, limit: 5 })
        expect(idsOf(last.body)).to.deep.equal([11, 12])
        expect(last.body.meta).to.deep.equal({
          current_page: 3,
          per_page: 5,
          total: 12,
          last_page: 3,
          from: 11,
          to: 12,
        })
        const past = await demo.client.get<ListBody>('/users', { page: 9, limit: 5 })
        expect(past.body.data).to.deep.equal([])
        expect(past.body.meta).to.deep.equal({
          current_page: 9,
          per_page: 5,
          total: 12,
          last_page: 3,
          from: null,
          to: null,
        })
      })

      it('page without limit uses 15 rows', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', { page: 2 })
        expect(idsOf(body)).to.deep.equal(posts.slice(15).map((p) => p.id))
        expect(body.meta).to.include({ per_page: 15, total: posts.length, last_page: 2, from: 16, to: posts.length })
      })

      it('counts distinct rows', async () => {
        const authors = new Set(posts.map((p) => p.user_id)).size
        const { body } = await demo.client.get<ListBody>('/posts', { distinct: ['user_id'], page: 1, limit: 4 })
        expect(body.data).to.have.length(4)
        expect(body.meta).to.include({ total: authors, last_page: Math.ceil(authors / 4) })
      })

      it('no page, no meta', async () => {
        const { body } = await demo.client.get<ListBody>('/posts', { limit: 2 })
        expect(body).to.have.all.keys('data')
      })
    })
  })
}
