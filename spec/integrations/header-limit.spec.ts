import { serve } from '@hono/node-server'
import { expect } from 'chai'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { once } from 'node:events'
import { createServer, maxHeaderSize, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { handleClientError, queryParamsFromRequest } from '../../lib/index.ts'
import { queryParamsPlugin } from '../../lib/integrations/fastify.ts'
import { queryParamsFromFetchRequest } from '../../lib/integrations/fetch.ts'
import { encodeClientQuery } from '../e2e/support/demo-client.ts'
import { send } from './support/send.ts'

const RAISED = 65_536
const IDS = Array.from({ length: 700 }, (_, index) => 1_000_000 + index)
const LONG_QUERY = encodeClientQuery({ wheres: [{ column: 'id', operator: 'in', value: IDS, boolean: 'and' }] })

async function portOf(server: Server): Promise<string> {
  if (!server.listening) await once(server, 'listening')
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

const closing = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()))

/** The ways docs/http.md gives to raise Node's header limit per server, each checked on a real server. */
describe('raising the header limit, as docs/http.md says', () => {
  it(`a ${LONG_QUERY.length}-byte query is over the default limit (${maxHeaderSize}) and under the raised one`, () => {
    expect(LONG_QUERY.length).to.be.above(maxHeaderSize).and.below(RAISED)
  })

  it('node:http: createServer({ maxHeaderSize }); the default server answers 431 problem+json through handleClientError', async () => {
    const handler: RequestListener = (req, res) => {
      res.end(JSON.stringify(queryParamsFromRequest(req)))
    }
    const raised = createServer({ maxHeaderSize: RAISED }, handler).listen(0, '127.0.0.1')
    const plain = createServer(handler).on('clientError', handleClientError).listen(0, '127.0.0.1')
    try {
      const ok = await send(`${await portOf(raised)}/?${LONG_QUERY}`)
      expect(ok.status).to.equal(200)
      expect((JSON.parse(ok.text) as { wheres: Array<{ value: number[] }> }).wheres[0]?.value).to.have.length(
        IDS.length,
      )
      const refused = await send(`${await portOf(plain)}/?${LONG_QUERY}`)
      expect(refused.status).to.equal(431)
      expect(refused.contentType).to.equal('application/problem+json')
      expect(JSON.parse(refused.text)).to.include({ status: 431, code: 'headers_too_large' })
    } finally {
      await Promise.all([closing(raised), closing(plain)])
    }
  })

  it('Fastify: Fastify({ http: { maxHeaderSize } }); the plugin answers 431 problem+json otherwise; clientErrors: false keeps Fastify’s own', async () => {
    const raised = Fastify({ http: { maxHeaderSize: RAISED } })
    const plain = Fastify()
    const own = Fastify()
    await raised.register(queryParamsPlugin)
    await plain.register(queryParamsPlugin)
    await own.register(queryParamsPlugin, { clientErrors: false })
    for (const app of [raised, plain, own]) app.get('/', async (request) => request.queryParams)
    try {
      const ok = await send(`${await raised.listen({ port: 0, host: '127.0.0.1' })}/?${LONG_QUERY}`)
      expect(ok.status).to.equal(200)
      const refused = await send(`${await plain.listen({ port: 0, host: '127.0.0.1' })}/?${LONG_QUERY}`)
      expect(refused.status).to.equal(431)
      expect(refused.contentType).to.equal('application/problem+json')
      expect(JSON.parse(refused.text)).to.include({ status: 431, code: 'headers_too_large' })
      const fastifys = await send(`${await own.listen({ port: 0, host: '127.0.0.1' })}/?${LONG_QUERY}`)
      expect(fastifys.status).to.equal(431)
      expect(fastifys.contentType).to.equal('application/json')
    } finally {
      await Promise.all([raised.close(), plain.close(), own.close()])
    }
  })

  it('@hono/node-server: serve({ serverOptions: { maxHeaderSize } })', async () => {
    const app = new Hono()
    app.get('/', async (c) => c.json(await queryParamsFromFetchRequest(c.req.raw)))
    const server = serve({
      fetch: app.fetch,
      port: 0,
      hostname: '127.0.0.1',
      serverOptions: { maxHeaderSize: RAISED },
    }) as Server
    try {
      expect((await send(`${await portOf(server)}/?${LONG_QUERY}`)).status).to.equal(200)
    } finally {
      await closing(server)
    }
  })
})
