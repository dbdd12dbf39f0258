import { expect } from 'chai'
import qs from 'qs'
import { CLIENT_ENCODING, CLIENT_HEADERS } from '../e2e/support/demo-client.ts'
import { BODY_LIMIT, METHODS, SERVERS, type RunningServer } from './support/servers.ts'
import { send, type SentResponse } from './support/send.ts'
import { GENERIC_500_BODY } from './support/generic-500.ts'

const FORM = 'application/x-www-form-urlencoded, charset=utf-8'
const encode = (params: Record<string, unknown>): string => qs.stringify(params, CLIENT_ENCODING)

const URL_PARAMS = { wheres: [{ column: 'title', operator: 'like', value: '%a%', boolean: 'and' }], limit: 2 }
const BODY_PARAMS = { with: ['author'], orders: [{ column: 'id', direction: 'desc' }], page: 3 }
const FROM_URL = { wheres: [{ column: 'title', operator: 'like', boolean: 'and', value: '%a%' }], limit: 2 }
const FROM_BOTH = { ...FROM_URL, with: ['author'], orders: [{ column: 'id', direction: 'desc' }], page: 3 }

const paramsOf = (response: SentResponse): unknown => {
  expect(response.status, response.text).to.equal(200)
  return (JSON.parse(response.text) as { params: unknown }).params
}

/** A 400/413 problem+json body with exactly the documented fields: no stack, no file path. */
const expectProblem = (response: SentResponse, status: number, code: string, param?: string): void => {
  expect(response.status, response.text).to.equal(status)
  expect(response.contentType).to.match(/^application\/problem\+json/)
  const body = JSON.parse(response.text) as Record<string, unknown>
  const keys =
    status === 400
      ? ['type', 'title', 'status', 'detail', 'message', 'code', 'param']
      : ['type', 'title', 'status', 'detail', 'message', 'code']
  expect(Object.keys(body).filter((key) => key !== 'allowed')).to.have.members(keys)
  expect(body['status']).to.equal(status)
  expect(body['code']).to.equal(code)
  if (param !== undefined) expect(body['param']).to.equal(param)
  expect(response.text).not.to.match(/\n\s+at |\.ts:\d|node_modules|"stack"/)
  expect(response.text).not.to.include(process.cwd())
}

for (const [name, start] of Object.entries(SERVERS)) {
  describe(`integration: ${name}`, () => {
    let server: RunningServer
    before(async () => {
      server = await start()
    })
    after(async () => {
      await server.close()
    })

    it('reads the params of the URL, with the client headers on a GET', async () => {
      const response = await send(`${server.url}/echo?${encode(URL_PARAMS)}`, { headers: { ...CLIENT_HEADERS } })
      expect(paramsOf(response)).to.deep.equal(FROM_URL)
    })

    for (const method of METHODS.filter((method) => method !== 'GET')) {
      it(`merges a form body sent with the client's comma Content-Type on ${method}`, async () => {
        const response = await send(`${server.url}/echo?${encode(URL_PARAMS)}`, {
          method,
          headers: { ...CLIENT_HEADERS },
          body: encode(BODY_PARAMS),
        })
        expect(paramsOf(response)).to.deep.equal(FROM_BOTH)
      })
    }

    it('reads a form body with a standard Content-Type (`; charset`)', async () => {
      const headers = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }
      const response = await send(`${server.url}/echo`, {
        method: 'POST',
        headers,
        body: encode({ ...URL_PARAMS, ...BODY_PARAMS }),
      })
      expect(paramsOf(response)).to.deep.equal(FROM_BOTH)
    })

    it('ignores a form body on GET, as every integration does', async () => {
      const response = await send(`${server.url}/echo?${encode(URL_PARAMS)}`, {
        headers: { 'content-type': FORM },
        body: encode(BODY_PARAMS),
      })
      expect(paramsOf(response)).to.deep.equal(FROM_URL)
    })

    it('ignores a JSON body', async () => {
      const headers = { 'content-type': 'application/json; charset="utf-8"' }
      const response = await send(`${server.url}/echo?${encode(URL_PARAMS)}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ with: ['author'] }),
      })
      expect(paramsOf(response)).to.deep.equal(FROM_URL)
    })

    it('keeps a key sent without `=` as null', async () => {
      const query = encode({ wheres: [{ column: 'deleted_at', operator: '=', value: null, boolean: 'and' }] })
      expect(query).to.include('wheres[0][value]&')
      const response = await send(`${server.url}/echo`, {
        method: 'DELETE',
        headers: { 'content-type': FORM },
        body: query,
      })
      expect(paramsOf(response)).to.deep.equal({
        wheres: [{ column: 'deleted_at', operator: '=', boolean: 'and', value: null }],
      })
    })

    it('answers a bad URL parameter with 400 problem+json, without stack or file path', async () => {
      expectProblem(
        await send(`${server.url}/echo?limit=abc`, { headers: { ...CLIENT_HEADERS } }),
        400,
        'invalid_number',
        'limit',
      )
    })

    it('answers a bad body parameter with 400 problem+json naming the path the client sent', async () => {
      const body = encode({ orders: [{ column: 'id', direction: 'sideways' }] })
      expectProblem(
        await send(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': FORM }, body }),
        400,
        'invalid_direction',
        'orders[0][direction]',
      )
    })

    it('answers a parameter sent both in the URL and in the body with invalid_syntax', async () => {
      const response = await send(`${server.url}/echo?limit=2`, {
        method: 'PUT',
        headers: { 'content-type': FORM },
        body: 'limit=3',
      })
      expectProblem(response, 400, 'invalid_syntax', 'limit')
    })

    it('maps a QueryParamsError thrown inside a route (a column outside the relation map)', async () => {
      const response = await send(
        `${server.url}/posts?${encode({ wheres: [{ column: 'password', operator: '=', value: 'x', boolean: 'and' }] })}`,
      )
      expectProblem(response, 400, 'unknown_column', 'wheres[0][column]')
    })

    it('runs a valid query through the relation map inside a route', async () => {
      const response = await send(
        `${server.url}/posts?${encode({ wheres: [{ column: 'title', operator: '=', value: 'x', boolean: 'and' }], limit: 1 })}`,
      )
      expect(response.status, response.text).to.equal(200)
      expect((JSON.parse(response.text) as { sql: string }).sql).to.match(
        /^select .* from `posts` where \(`posts`\.`title` = \?\)/,
      )
    })

    it(`answers a form body over the limit (${BODY_LIMIT} bytes) with 413 problem+json`, async () => {
      const body = encode({
        wheres: [
          { column: 'id', operator: 'in', value: Array.from({ length: 800 }, (_, index) => index), boolean: 'and' },
        ],
      })
      expect(body.length).to.be.above(BODY_LIMIT)
      expectProblem(
        await send(`${server.url}/echo`, { method: 'POST', headers: { 'content-type': FORM }, body }),
        413,
        'body_too_large',
      )
    })

    it('answers any other error with a generic 500 problem+json that says nothing of it', async () => {
      const response = await send(`${server.url}/boom`)
      expect(response.status).to.equal(500)
      expect(response.contentType).to.match(/^application\/problem\+json/)
      expect(JSON.parse(response.text)).to.deep.equal(GENERIC_500_BODY)
    })

    it("leaves the framework's own client errors to it (404)", async () => {
      const response = await send(`${server.url}/no-such-route`)
      expect(response.status).to.equal(404)
    })
  })
}
