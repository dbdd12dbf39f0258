import { expect } from 'chai'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import qs from 'qs'
import {
  errorResponse,
  isFormContentType,
  normalizeContentType,
  parseQueryParams,
  QueryParamsError,
  queryParamsFromRequest,
  type QueryParams,
} from '../../lib/index.ts'
import { CLIENT_ENCODING, encodeClientQuery } from './support/demo-client.ts'

const FORM = 'application/x-www-form-urlencoded, charset=utf-8'

const clientParams = {
  wheres: [
    { column: 'title', operator: 'like', value: '%sql%', boolean: 'and' },
    { column: 'rating', operator: '=', value: null, boolean: 'or' },
  ],
  relationsExists: ['comments'],
  with: ['author'],
  limit: 5,
}
const query = encodeClientQuery(clientParams)
const expected: QueryParams = {
  wheres: [
    { column: 'title', operator: 'like', value: '%sql%', boolean: 'and' },
    { column: 'rating', operator: '=', value: null, boolean: 'or' },
  ],
  relationsExists: ['comments'],
  with: ['author'],
  limit: 5,
}

function thrown(run: () => unknown): QueryParamsError {
  try {
    run()
  } catch (error) {
    if (error instanceof QueryParamsError) return error
    throw error
  }
  throw new Error('expected a QueryParamsError')
}

describe('queryParamsFromRequest', () => {
  it('encodes the client way: brackets kept, values escaped, null without =', () => {
    expect(query).to.equal(
      'wheres[0][column]=title&wheres[0][operator]=like&wheres[0][value]=%25sql%25&wheres[0][boolean]=and' +
        '&wheres[1][column]=rating&wheres[1][operator]=%3D&wheres[1][value]&wheres[1][boolean]=or' +
        '&relations_exists[0]=comments&with[0]=author&limit=5',
    )
  })

  describe('request shapes', () => {
    it('a plain http.IncomingMessage (url, headers)', () => {
      expect(queryParamsFromRequest({ url: `/posts?${query}`, headers: { 'content-type': FORM } })).to.deep.equal(
        expected,
      )
    })

    it('Express: originalUrl wins over the url a mounted router rewrote, and over the parsed req.query', () => {
      const req = { originalUrl: `/api/posts?${query}`, url: '/posts?limit=1', query: { limit: '1' }, headers: {} }
      expect(queryParamsFromRequest(req)).to.deep.equal(expected)
    })

    it('Fastify: raw.url, and the raw form body its parser kept', () => {
      const request = {
        url: '/posts?limit=5',
        raw: { url: '/posts?limit=5' },
        headers: { 'content-type': FORM },
        body: 'with[0]=author&columns[0]=id',
        query: { limit: '5' },
      }
      expect(queryParamsFromRequest(request)).to.deep.equal({ limit: 5, with: ['author'], columns: ['id'] })
    })

    it('Koa: a context (ctx.request, ctx.req) or ctx.request itself', () => {
      const request = { querystring: query, headers: { 'content-type': FORM }, body: { columns: ['id'] } }
      const ctx = { request, req: { url: `/posts?${query}`, headers: request.headers }, originalUrl: `/posts?${query}` }
      expect(queryParamsFromRequest(ctx)).to.deep.equal({ ...expected, columns: ['id'] })
      expect(queryParamsFromRequest(request)).to.deep.equal({ ...expected, columns: ['id'] })
    })

    it('a fetch Request: absolute URL, Headers with get()', () => {
      const request = new Request(`http://localhost/posts?${query}`, { headers: { 'content-type': FORM } })
      expect(queryParamsFromRequest({ url: request.url, headers: request.headers })).to.deep.equal(expected)
    })

    it('falls back to a parsed query object only when no URL is known', () => {
      expect(queryParamsFromRequest({ query: qs.parse(query, { strictNullHandling: true }) })).to.deep.equal(expected)
      expect(
        queryParamsFromRequest({
          query: {
            'wheres[0][column]': 'id',
            'wheres[0][operator]': '=',
            'wheres[0][value]': '1',
            'wheres[0][boolean]': 'and',
          },
        }),
      ).to.deep.equal({
        wheres: [{ column: 'id', operator: '=', value: '1', boolean: 'and' }],
      })
    })

    it('a URL without query string, or no URL at all, is no params', () => {
      expect(queryParamsFromRequest({ url: '/posts' })).to.deep.equal({})
      expect(queryParamsFromRequest({ url: '/posts?', headers: { 'content-type': FORM } })).to.deep.equal({})
      expect(queryParamsFromRequest({})).to.deep.equal({})
    })

    it('keeps application keys out, and reports them in strict mode', () => {
      expect(queryParamsFromRequest({ url: '/posts?custom=p&camel_key=1&limit=2' })).to.deep.equal({ limit: 2 })
      expect(thrown(() => queryParamsFromRequest({ url: '/posts?custom=p' }, { strict: true }))).to.include({
        code: 'unknown_parameter',
        param: 'custom',
      })
    })
  })

  describe('form-urlencoded bodies', () => {
    const body = qs.stringify(
      { columns: ['id', 'title'], wheres: [{ column: 'body', operator: '=', value: null, boolean: 'and' }] },
      CLIENT_ENCODING,
    )
    const fromBody: QueryParams = {
      columns: ['id', 'title'],
      wheres: [{ column: 'body', operator: '=', value: null, boolean: 'and' }],
    }

    for (const contentType of [
      FORM,
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'Application/X-WWW-Form-Urlencoded;charset=utf-8',
    ]) {
      it(`reads a raw text body sent as ${contentType}`, () => {
        expect(queryParamsFromRequest({ url: '/posts', headers: { 'content-type': contentType }, body })).to.deep.equal(
          fromBody,
        )
      })
    }

    it('reads a Buffer, a kept rawBody, and URLSearchParams', () => {
      const headers = { 'content-type': FORM }
      expect(queryParamsFromRequest({ url: '/posts', headers, body: Buffer.from(body) })).to.deep.equal(fromBody)
      expect(
        queryParamsFromRequest({ url: '/posts', headers, rawBody: body, body: { ignored: 'parsed' } }),
      ).to.deep.equal(fromBody)
      expect(
        queryParamsFromRequest({ url: '/posts', headers, body: new URLSearchParams('limit=3&with[0]=author') }),
      ).to.deep.equal({ limit: 3, with: ['author'] })
    })

    it('reads an object a framework already parsed: nested (qs, express.urlencoded extended) or flat (querystring)', () => {
      const headers = { 'content-type': FORM }
      expect(
        queryParamsFromRequest({ url: '/posts', headers, body: qs.parse(body, { strictNullHandling: true }) }),
      ).to.deep.equal(fromBody)
      const flat = {
        'columns[0]': 'id',
        'columns[1]': 'title',
        'wheres[0][column]': 'body',
        'wheres[0][operator]': '=',
        'wheres[0][value]': null,
        'wheres[0][boolean]': 'and',
      }
      expect(queryParamsFromRequest({ url: '/posts', headers, body: flat })).to.deep.equal(fromBody)
    })

    it('merges the URL params with the body params', () => {
      expect(
        queryParamsFromRequest({ url: '/posts?limit=2&page=3', headers: { 'content-type': FORM }, body }),
      ).to.deep.equal({ limit: 2, page: 3, ...fromBody })
    })

    it('rejects a parameter sent in both places, in either spelling', () => {
      const headers = { 'content-type': FORM }
      expect(thrown(() => queryParamsFromRequest({ url: '/posts?columns[0]=id', headers, body }))).to.include({
        code: 'invalid_syntax',
        param: 'columns',
      })
      const twice = thrown(() =>
        queryParamsFromRequest({
          url: '/posts?relationsExists[0]=tags',
          headers,
          body: 'relations_exists[0]=comments',
        }),
      )
      expect(twice).to.include({ code: 'invalid_syntax', param: 'relations_exists' })
    })

    it('ignores a JSON body and a body without a content type', () => {
      expect(
        queryParamsFromRequest({
          url: '/posts?limit=1',
          headers: { 'content-type': 'application/json; charset="utf-8"' },
          body: { columns: ['id'] },
        }),
      ).to.deep.equal({ limit: 1 })
      expect(queryParamsFromRequest({ url: '/posts?limit=1', body })).to.deep.equal({ limit: 1 })
    })

    it('takes options.body as given (a body read from the stream)', () => {
      expect(queryParamsFromRequest({ url: '/posts?limit=1' }, { body })).to.deep.equal({ limit: 1, ...fromBody })
    })

    it('reports errors in the body with the path the client sent', () => {
      const error = thrown(() =>
        queryParamsFromRequest({
          url: '/posts',
          headers: { 'content-type': FORM },
          body: 'wheres[0][column]=id&wheres[0][operator]=~&wheres[0][value]=1',
        }),
      )
      expect(error).to.include({ code: 'invalid_operator', param: 'wheres[0][operator]' })
    })
  })

  it('works in a plain node:http server, reading the body itself', async () => {
    const readBody = async (req: IncomingMessage): Promise<string> => {
      let text = ''
      for await (const chunk of req) text += String(chunk)
      return text
    }
    const server = createServer((req, res) => {
      readBody(req).then(
        (body) => {
          try {
            const params = queryParamsFromRequest(req, { body })
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(params))
          } catch (error) {
            const response = errorResponse(error)
            if (response === undefined) throw error
            res.writeHead(response.status, response.headers).end(JSON.stringify(response.body))
          }
        },
        () => res.writeHead(500).end(),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = server.address() as AddressInfo
      const url = `http://127.0.0.1:${port}/posts`
      const get = await fetch(`${url}?${query}`, { headers: { Accept: 'application/json', 'Content-Type': FORM } })
      expect(await get.json()).to.deep.equal(expected)
      const post = await fetch(url, { method: 'POST', headers: { 'Content-Type': FORM }, body: query })
      expect(await post.json()).to.deep.equal(expected)
      const bad = await fetch(`${url}?limit=0`)
      expect(bad.status).to.equal(400)
      expect(bad.headers.get('content-type')).to.equal('application/problem+json')
      expect(await bad.json()).to.include({ code: 'invalid_number', param: 'limit', status: 400 })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe('errorResponse', () => {
  it('turns a QueryParamsError into a 400 problem+json response', () => {
    const error = thrown(() => parseQueryParams('orders[0][column]=id&orders[0][direction]=sideways'))
    expect(errorResponse(error)).to.deep.equal({
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: error.message,
        message: error.message,
        code: 'invalid_direction',
        param: 'orders[0][direction]',
        allowed: ['asc', 'desc'],
      },
    })
  })

  it('leaves allowed out when there is none, and takes a type URI per code', () => {
    const error = new QueryParamsError('Parameter limit is bad.', { code: 'invalid_number', param: 'limit' })
    const response = errorResponse(error, { type: (code) => `https://api.example.com/problems/${code}` })
    expect(response?.body).not.to.have.property('allowed')
    expect(response?.body.type).to.equal('https://api.example.com/problems/invalid_number')
  })

  it('is undefined for any other error, so the caller can rethrow it', () => {
    expect(errorResponse(new Error('boom'))).to.equal(undefined)
    expect(errorResponse('boom')).to.equal(undefined)
    expect(errorResponse({ code: 'unknown_column', status: 400 })).to.equal(undefined)
  })
})

describe('content types', () => {
  it('isFormContentType accepts the comma form and any parameters', () => {
    expect(isFormContentType(FORM)).to.equal(true)
    expect(isFormContentType('application/x-www-form-urlencoded')).to.equal(true)
    expect(isFormContentType(' application/x-www-form-urlencoded ;charset=utf-8')).to.equal(true)
    expect(isFormContentType(['application/x-www-form-urlencoded'])).to.equal(true)
    expect(isFormContentType('application/json')).to.equal(false)
    expect(isFormContentType('multipart/form-data; boundary=x')).to.equal(false)
    expect(isFormContentType(undefined)).to.equal(false)
  })

  it('normalizeContentType turns the comma into a semicolon and leaves anything else alone', () => {
    expect(normalizeContentType(FORM)).to.equal('application/x-www-form-urlencoded; charset=utf-8')
    expect(normalizeContentType('application/json, charset="utf-8"')).to.equal('application/json; charset="utf-8"')
    expect(normalizeContentType('application/json; charset="utf-8"')).to.equal('application/json; charset="utf-8"')
    expect(normalizeContentType('text/html, application/xhtml+xml')).to.equal('text/html, application/xhtml+xml')
    expect(normalizeContentType('')).to.equal('')
  })
})
