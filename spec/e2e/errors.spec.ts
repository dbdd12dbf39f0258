import { expect } from 'chai'
import knex from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from './support/demo-client.ts'
import type { ListBody } from './support/expected.ts'

interface Problem {
  type: string
  title: string
  status: number
  detail: string
  message: string
  code: string
  param: string
  allowed?: string[]
}

for (const db of testDatabases()) {
  describe(`e2e errors on ${db.label}`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    const problem = async (path: string, params: Record<string, unknown>): Promise<Problem> => {
      const response = await demo.client.get<Problem>(path, params)
      expect(response.status).to.equal(400)
      expect(response.contentType).to.match(/^application\/problem\+json/)
      expect(response.body.status).to.equal(400)
      expect(response.body.title).to.equal('Bad Request')
      expect(response.body.type).to.equal('about:blank')
      expect(response.body.message).to.equal(response.body.detail)
      expect(response.body.message).to.include(response.body.param)
      return response.body
    }

    it('a column outside the allow-list: 400 with code, param and the allowed columns', async () => {
      const body = await problem('/users', {
        wheres: [{ column: 'password', operator: '=', value: 'x', boolean: 'and' }],
      })
      expect(body).to.include({ code: 'unknown_column', param: 'wheres[0][column]' })
      expect(body.allowed).to.have.members(Object.keys(relationMap.users.columns))
    })

    it('an unknown operator', async () => {
      const body = await problem('/users', {
        wheres: [{ column: 'id', operator: 'regexp', value: '1', boolean: 'and' }],
      })
      expect(body).to.include({ code: 'invalid_operator', param: 'wheres[0][operator]' })
      expect(body.allowed).to.include('notBetween')
    })

    it('a value that does not fit the column type', async () => {
      const body = await problem('/posts', {
        wheres: [{ column: 'views', operator: '>', value: 'many', boolean: 'and' }],
      })
      expect(body).to.include({ code: 'invalid_value', param: 'wheres[0][value]' })
    })

    it('an unknown relation in with, named as the client sent it', async () => {
      const body = await problem('/posts', { with: ['author', 'likes'] })
      expect(body).to.include({ code: 'unknown_relation', param: 'with[1]' })
      expect(body.allowed).to.include.members(['*', 'author', 'comments', 'tags', 'images'])
    })

    it('an unknown relation in relations_exists keeps the snake_case key in param', async () => {
      const body = await problem('/users', { relationsExists: ['friends'] })
      expect(body).to.include({ code: 'unknown_relation', param: 'relations_exists[0]' })
    })

    it('an unknown scope', async () => {
      const body = await problem('/posts', { scopes: ['trending'] })
      expect(body).to.include({ code: 'unknown_scope', param: 'scopes[0]' })
      expect(body.allowed).to.have.members(['published', 'popular'])
    })

    it('a bad direction and a bad number', async () => {
      expect(await problem('/posts', { orders: [{ column: 'id', direction: 'up' }] })).to.include({
        code: 'invalid_direction',
        param: 'orders[0][direction]',
      })
      expect(await problem('/posts', { limit: 'ten' })).to.include({ code: 'invalid_number', param: 'limit' })
      expect(await problem('/posts', { limit: 5000 })).to.include({ code: 'limit_exceeded', param: 'limit' })
    })

    it('on a single record too', async () => {
      expect(await problem('/users/1', { columns: ['password'] })).to.include({
        code: 'unknown_column',
        param: 'columns[0]',
      })
    })

    it('a missing record: 404 JSON', async () => {
      for (const path of ['/users/999', '/users/abc', '/users/0']) {
        const response = await demo.client.get<{ message: string }>(path)
        expect(response.status, path).to.equal(404)
        expect(response.contentType).to.match(/^application\/json/)
        expect(response.body.message).to.be.a('string')
      }
    })

    it('an unknown route: 404 JSON', async () => {
      const response = await demo.client.get<{ message: string }>('/passwords')
      expect(response.status).to.equal(404)
      expect(response.body.message).to.include('/passwords')
    })

    it("accepts the client's comma Content-Type on a GET, and ignores a JSON body's content type", async () => {
      const form = await demo.client.send<ListBody>('GET', '/tags', { params: { limit: 2 } })
      expect(form.status).to.equal(200)
      const json = await demo.client.send<ListBody>('GET', '/tags', {
        params: { limit: 2 },
        headers: { 'Content-Type': 'application/json' },
      })
      expect(json.status).to.equal(200)
      expect(json.body.data).to.have.length(2)
    })

    it('reads a form-urlencoded body carrying the params (a DELETE-like method with a body)', async () => {
      // Fastify reads no body on GET; the specification's form body comes with methods that allow one.
      const response = await demo.client.send<{ data: Record<string, unknown> }>('DELETE', '/tags/999', {
        form: 'columns[0]=id',
      })
      expect(response.status).to.equal(404)
      const bad = await demo.client.send<Problem>('DELETE', '/tags/1', { form: 'columns[0]=password' })
      expect(bad.status).to.equal(400)
      expect(bad.body).to.include({ code: 'unknown_column', param: 'columns[0]' })
    })

    it('preflight OPTIONS for a browser on another origin', async () => {
      const response = await fetch(`${demo.client.baseUrl}/posts`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://app.example',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'content-type',
        },
      })
      expect(response.status).to.equal(204)
      expect(response.headers.get('access-control-allow-origin')).to.equal('*')
      expect(response.headers.get('access-control-allow-headers')).to.equal('content-type')
    })
  })
}

describe('e2e unexpected errors', () => {
  it('answer 500 without SQL or stack', async () => {
    const empty = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
    const demo = await startDemo(empty)
    try {
      const response = await demo.client.get('/posts', { limit: 1 })
      expect(response.status).to.equal(500)
      expect(response.body).to.deep.equal({ message: 'Internal Server Error' })
    } finally {
      await demo.close()
      await empty.destroy()
    }
  })
})
