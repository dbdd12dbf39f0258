import { expect } from 'chai'
import Fastify from 'fastify'
import { queryParamsPlugin } from '../../lib/integrations/fastify.ts'

describe('knex-query-params/fastify without fastify-plugin', () => {
  it('is marked as fastify-plugin marks a plugin: not encapsulated, named, for Fastify 5', () => {
    const marked = queryParamsPlugin as unknown as Record<symbol, unknown>
    expect(marked[Symbol.for('skip-override')]).to.equal(true)
    expect(marked[Symbol.for('fastify.display-name')]).to.equal('knex-query-params')
    expect(marked[Symbol.for('plugin-meta')]).to.deep.equal({ name: 'knex-query-params', fastify: '5.x' })
  })

  it("reaches the routes of the instance that registers it (its decorator, parser and error handler), not a sibling's", async () => {
    const app = Fastify()
    await app.register(async (scope) => {
      await scope.register(queryParamsPlugin)
      scope.post('/with/posts', async (request) => request.queryParams)
    })
    await app.register(async (sibling) => {
      sibling.get('/without/posts', async (request) => ({ decorated: 'queryParams' in request }))
    })
    try {
      const form = await app.inject({
        method: 'POST',
        url: '/with/posts?limit=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded, charset=utf-8' },
        payload: 'columns[0]=id',
      })
      expect([form.statusCode, form.json()]).to.deep.equal([200, { limit: 2, columns: ['id'] }])
      const bad = await app.inject({ method: 'POST', url: '/with/posts?limit=0' })
      expect([bad.statusCode, bad.headers['content-type'], bad.json<{ code: string }>().code]).to.deep.equal([
        400,
        'application/problem+json; charset=utf-8',
        'invalid_number',
      ])
      const sibling = await app.inject({ method: 'GET', url: '/without/posts' })
      expect(sibling.json()).to.deep.equal({ decorated: false })
      expect(app.printPlugins()).to.include('knex-query-params')
    } finally {
      await app.close()
    }
  })
})
