import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from './support/demo-client.ts'
import { restoreSequences } from './support/restore-sequences.ts'
import type { RecordBody } from './support/expected.ts'

type Row = Record<string, unknown>

interface Problem {
  code: string
  param: string
  message: string
  allowed?: string[]
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

for (const db of testDatabases()) {
  describe(`e2e writes on ${db.label}`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
      await restoreSequences(db.knex, ['tags', 'posts', 'users', 'comments'])
    })

    it('create → read → update → delete, as the 0.19 client sends them', async () => {
      const started = Date.now() - 1000
      const created = await demo.client.send<RecordBody>('POST', '/tags', { json: { name: 'e2e round trip' } })
      expect(created.status).to.equal(201)
      const tag = created.body.data
      expect(tag).to.have.all.keys('id', 'name', 'created_at', 'updated_at')
      expect(tag.name).to.equal('e2e round trip')
      expect(tag.created_at).to.match(ISO)
      expect(Date.parse(String(tag.created_at))).to.be.within(started, Date.now() + 1000)
      const path = `/tags/${String(tag.id)}`

      const read = await demo.client.get<RecordBody>(path)
      expect(read.body.data).to.deep.equal(tag)
      const stored: Row | undefined = await db.knex('tags').where('id', Number(tag.id)).first()
      expect(stored?.name).to.equal('e2e round trip')

      const updated = await demo.client.send<RecordBody>('PATCH', path, { json: { name: 'e2e renamed' } })
      expect(updated.status).to.equal(200)
      expect(updated.body.data).to.include({ id: tag.id, name: 'e2e renamed', created_at: tag.created_at })
      expect(Date.parse(String(updated.body.data.updated_at))).to.be.at.least(Date.parse(String(tag.updated_at)))
      expect((await db.knex('tags').where('id', Number(tag.id)).first())?.name).to.equal('e2e renamed')

      const deleted = await demo.client.send<RecordBody>('DELETE', path, {
        json: { deleted_at: new Date().toISOString() },
      })
      expect(deleted.status).to.equal(200)
      expect(deleted.body.data).to.include({ id: tag.id, name: 'e2e renamed' })
      // The client's DELETE with `deleted_at` soft-deletes: the row stays, stamped, and every read hides it.
      const softDeleted: Row | undefined = await db.knex('tags').where('id', Number(tag.id)).first()
      try {
        expect(softDeleted?.deleted_at).to.not.equal(null)
        expect((await demo.client.get(path)).status).to.equal(404)
        expect((await demo.client.send('PATCH', path, { json: { name: 'revived' } })).status).to.equal(404)
        expect((await demo.client.send('DELETE', path)).status).to.equal(404)
      } finally {
        await db.knex('tags').where('id', Number(tag.id)).delete()
      }
    })

    it('a soft-deleted row is hidden on every path: lists, counts, relation filters, relationsExists, with', async () => {
      const comment = await demo.client.send<RecordBody>('POST', '/comments', {
        json: { post_id: 1, user_id: 2, body: 'e2e soft' },
      })
      const id = Number(comment.body.data.id)
      const reads = {
        list: '/comments?wheres[0][column]=body&wheres[0][value]=e2e%20soft&page=1',
        filter: '/posts?wheres[0][column]=comments.body&wheres[0][value]=e2e%20soft',
        exists: `/users?wheres[0][column]=id&wheres[0][value]=2&relationsExists[0]=comments`,
        with: '/posts/1?with[0]=comments',
      }
      type ListBody = { data: Row[]; meta?: { total?: number } }
      try {
        const before = await demo.client.get<ListBody>(reads.list)
        expect(before.body.data.map((row) => row.id)).to.deep.equal([id])
        expect(before.body.meta?.total).to.equal(1)
        expect((await demo.client.get<ListBody>(reads.filter)).body.data.map((row) => row.id)).to.deep.equal([1])
        const withBefore = await demo.client.get<{ data: { comments: Row[] } }>(reads.with)
        expect(withBefore.body.data.comments.map((row) => row.id)).to.include(id)

        const userComments = await db.knex('comments').where('user_id', 2).whereNull('deleted_at').pluck('id')
        expect(
          (await demo.client.send('DELETE', `/comments/${id}`, { json: { deleted_at: new Date().toISOString() } }))
            .status,
        ).to.equal(200)
        await db
          .knex('comments')
          .whereIn(
            'id',
            userComments.filter((other) => other !== id),
          )
          .update({ deleted_at: '2024-01-01 00:00:00' })

        const after = await demo.client.get<ListBody>(reads.list)
        expect(after.body.data).to.deep.equal([])
        expect(after.body.meta?.total).to.equal(0)
        expect((await demo.client.get<ListBody>(reads.filter)).body.data).to.deep.equal([])
        expect(
          (await demo.client.get<ListBody>(reads.exists)).body.data,
          'user 2 has only deleted comments',
        ).to.deep.equal([])
        const withAfter = await demo.client.get<{ data: { comments: Row[] } }>(reads.with)
        expect(withAfter.body.data.comments.map((row) => row.id)).not.to.include(id)
      } finally {
        await db.knex('comments').where('user_id', 2).update({ deleted_at: null })
        await db.knex('comments').where('id', id).delete()
      }
    })

    it('a DELETE without body, with the form or the JSON content type', async () => {
      for (const contentType of ['application/x-www-form-urlencoded, charset=utf-8', 'application/json']) {
        const created = await demo.client.send<RecordBody>('POST', '/tags', { json: { name: 'e2e delete' } })
        const response = await demo.client.send('DELETE', `/tags/${String(created.body.data.id)}`, {
          headers: { 'Content-Type': contentType },
        })
        expect(response.status, contentType).to.equal(200)
      }
      expect(await db.knex('tags').where('name', 'e2e delete')).to.deep.equal([])
    })

    it('coerces attribute types and returns the stored values the same way on every database', async () => {
      const created = await demo.client.send<RecordBody>('POST', '/posts', {
        json: {
          userId: '4',
          title: 'e2e post',
          published: 'true',
          published_at: '2024-05-06T09:10:11+02:00',
          views: '12',
          rating: 3.5,
          body: null,
        },
        params: { with: ['author'] },
      })
      expect(created.status, JSON.stringify(created.body)).to.equal(201)
      try {
        expect(created.body.data).to.include({
          user_id: 4,
          title: 'e2e post',
          published: true,
          published_at: '2024-05-06T07:10:11.000Z',
          views: 12,
          rating: 3.5,
          body: null,
        })
        expect((created.body.data.author as Row).name).to.equal('dave')
        const found = await demo.client.get<{ data: Row[] }>('/posts', {
          wheres: [{ column: 'published_at', operator: '=', value: new Date('2024-05-06T07:10:11Z'), boolean: 'and' }],
        })
        expect(found.body.data.map((row) => row.id)).to.deep.equal([created.body.data.id])
      } finally {
        await db.knex('posts').where('id', Number(created.body.data.id)).delete()
      }
    })

    it('a column outside the allow-list (users.password) is a 400, and a new user gets no usable password', async () => {
      const rejected = await demo.client.send<Problem>('POST', '/users', {
        json: { name: 'Zed', email: 'zed@example.com', password: 'hunter2' },
      })
      expect(rejected.status).to.equal(400)
      expect(rejected.body).to.include({ code: 'unknown_column', param: 'password' })
      expect(rejected.body.allowed).not.to.include('password')
      expect(await db.knex('users').where('email', 'zed@example.com')).to.deep.equal([])

      const created = await demo.client.send<RecordBody>('POST', '/users', {
        json: { name: 'Zed', email: 'zed@example.com', is_admin: false },
      })
      expect(created.status).to.equal(201)
      try {
        expect(created.body.data).not.to.have.property('password')
        expect(created.body.data).to.include({ name: 'Zed', is_admin: false, team_id: null })
        const stored: { password?: string } | undefined = await db
          .knex('users')
          .where('id', Number(created.body.data.id))
          .first('password')
        expect(stored?.password).to.equal('!')
      } finally {
        await db.knex('users').where('id', Number(created.body.data.id)).delete()
      }
    })

    it('ignores the columns the server owns, rejects bad values and missing required attributes', async () => {
      const badType = await demo.client.send<Problem>('PATCH', '/posts/1', { json: { views: 'lots' } })
      expect(badType.status).to.equal(400)
      expect(badType.body).to.include({ code: 'invalid_value', param: 'views' })
      const missing = await demo.client.send<Problem>('POST', '/posts', { json: { title: 'no author' } })
      expect(missing.status).to.equal(400)
      expect(missing.body).to.include({ code: 'invalid_value', param: 'user_id' })
      const notObject = await demo.client.send<Problem>('POST', '/tags', { json: ['x'] })
      expect(notObject.status).to.equal(400)

      const created = await demo.client.send<RecordBody>('POST', '/tags', {
        json: { id: 500, name: 'e2e owned', created_at: '2000-01-01T00:00:00Z' },
      })
      expect(created.status).to.equal(201)
      const path = `/tags/${String(created.body.data.id)}`
      try {
        expect(created.body.data.id).not.to.equal(500)
        expect(created.body.data.created_at).not.to.equal('2000-01-01T00:00:00.000Z')
        const unchanged = await demo.client.send<RecordBody>('PATCH', path, {
          json: { id: 501, createdAt: '2000-01-01T00:00:00Z', updated_at: null },
        })
        expect(unchanged.status).to.equal(200)
        expect(unchanged.body.data).to.include({ id: created.body.data.id, created_at: created.body.data.created_at })
        for (let i = 0; i < 2; i++)
          expect(
            (await demo.client.send('PATCH', path, { json: { name: 'e2e owned' } })).status,
            'an unchanged row',
          ).to.equal(200)
      } finally {
        await demo.client.send('DELETE', path)
      }
    })

    it('PATCH and DELETE of a missing record are 404', async () => {
      expect((await demo.client.send('PATCH', '/tags/999', { json: { name: 'x' } })).status).to.equal(404)
      expect((await demo.client.send('DELETE', '/tags/999')).status).to.equal(404)
    })

    it('a write that breaks a constraint is a 409 and changes nothing', async () => {
      const response = await demo.client.send<{ message: string }>('DELETE', '/posts/1')
      expect(response.status).to.equal(409)
      expect(response.body.message).not.to.match(/select|delete|insert|constraint failed/i)
      expect(await db.knex('posts').where('id', 1).first()).not.to.equal(undefined)
      const duplicate = await demo.client.send('POST', '/users', { json: { name: 'Copy', email: 'bob@example.com' } })
      expect(duplicate.status).to.equal(409)
    })
  })
}
