import { expect } from 'chai'
import { QueryParamsError } from '../../lib/index.ts'
import {
  BodyTooLargeError,
  handleClientError,
  isFormRequest,
  problemResponse,
  readsFormBody,
  type ClientErrorSocket,
} from '../../lib/http.ts'

class FakeSocket implements ClientErrorSocket {
  written = ''
  destroyed = false
  destroyedWith: Error | undefined
  readonly writable: boolean
  constructor(writable = true) {
    this.writable = writable
  }
  end(data: string): void {
    this.written += data
  }
  destroy(error?: Error): void {
    this.destroyed = true
    this.destroyedWith = error
  }
}

const clientError = (code: string): Error & { code: string } => Object.assign(new Error(code), { code })

describe('problem answers shared by the integrations', () => {
  describe('isFormRequest', () => {
    it('is also exported under its old name readsFormBody (deprecated)', () => {
      expect(readsFormBody).to.equal(isFormRequest)
    })

    it('reads a form body on every method but GET, HEAD and TRACE, whatever the parameter separator', () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY', 'post']) {
        expect(isFormRequest(method, 'application/x-www-form-urlencoded, charset=utf-8'), method).to.equal(true)
      }
      for (const method of ['GET', 'HEAD', 'TRACE', 'get', undefined]) {
        expect(isFormRequest(method, 'application/x-www-form-urlencoded'), String(method)).to.equal(false)
      }
      expect(isFormRequest('POST', 'application/json; charset="utf-8"')).to.equal(false)
      expect(isFormRequest('POST', undefined)).to.equal(false)
    })
  })

  describe('problemResponse', () => {
    it('answers a QueryParamsError as errorResponse does', () => {
      const response = problemResponse(
        new QueryParamsError("Parameter 'limit' is wrong.", { code: 'invalid_number', param: 'limit' }),
      )
      expect(response?.status).to.equal(400)
      expect(response?.body).to.include({ code: 'invalid_number', param: 'limit' })
    })

    it('answers every 413 shape with body_too_large: ours, body-parser’s (status), Fastify’s (statusCode)', () => {
      const shapes = [
        new BodyTooLargeError(10),
        Object.assign(new Error('request entity too large'), { status: 413, type: 'entity.too.large' }),
        Object.assign(new Error('Request body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }),
      ]
      for (const error of shapes) {
        expect(problemResponse(error)).to.deep.equal({
          status: 413,
          headers: { 'content-type': 'application/problem+json' },
          body: {
            type: 'about:blank',
            title: 'Content Too Large',
            status: 413,
            detail: 'The request body is too large. Send fewer or shorter parameters.',
            message: 'The request body is too large. Send fewer or shorter parameters.',
            code: 'body_too_large',
          },
        })
      }
    })

    it('returns undefined for any other error', () => {
      expect(problemResponse(new Error('boom'))).to.equal(undefined)
      expect(problemResponse(Object.assign(new Error('bad json'), { status: 400 }))).to.equal(undefined)
      expect(problemResponse('text')).to.equal(undefined)
    })
  })

  describe('handleClientError', () => {
    it('answers a header overflow with a complete 431 problem+json response and closes the connection', () => {
      const socket = new FakeSocket()
      expect(handleClientError(clientError('HPE_HEADER_OVERFLOW'), socket)).to.equal(431)
      const [head = '', body = ''] = socket.written.split('\r\n\r\n')
      expect(head.split('\r\n')).to.deep.equal([
        'HTTP/1.1 431 Request Header Fields Too Large',
        'Content-Type: application/problem+json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ])
      expect(JSON.parse(body)).to.include({
        status: 431,
        code: 'headers_too_large',
        title: 'Request Header Fields Too Large',
      })
    })

    it('answers any other parse error with a plain 400', () => {
      const socket = new FakeSocket()
      expect(handleClientError(clientError('HPE_INVALID_METHOD'), socket)).to.equal(400)
      expect(socket.written).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/)
    })

    it('writes nothing to a reset, destroyed or unwritable socket', () => {
      const reset = new FakeSocket()
      expect(handleClientError(clientError('ECONNRESET'), reset)).to.equal(undefined)
      expect(reset.written).to.equal('')
      const unwritable = new FakeSocket(false)
      const error = clientError('HPE_HEADER_OVERFLOW')
      expect(handleClientError(error, unwritable)).to.equal(undefined)
      expect(unwritable.written).to.equal('')
      expect(unwritable.destroyedWith).to.equal(error)
    })
  })
})
