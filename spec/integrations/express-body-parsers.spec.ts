import { expect } from 'chai'
import express from 'express'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { isFormContentType } from '../../lib/index.ts'
import { queryParams, queryParamsErrorHandler } from '../../lib/integrations/express.ts'
import { send } from './support/send.ts'

const BODY =
  'wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2&wheres[0][boolean]=and&with[0]=author'
const PARAMS = { wheres: [{ column: 'id', operator: 'in', boolean: 'and', value: ['1', '2'] }], with: ['author'] }

/** The middleware uses a body that one of Express's own body parsers already read. */
describe('integration: express after a body parser', () => {
  const cases: Array<[string, express.RequestHandler, string]> = [
    [
      'express.urlencoded({ extended: true })',
      express.urlencoded({ extended: true }),
      'application/x-www-form-urlencoded; charset=utf-8',
    ],
    [
      'express.urlencoded({ extended: false })',
      express.urlencoded({ extended: false }),
      'application/x-www-form-urlencoded',
    ],
    [
      'express.text() for the client’s comma Content-Type',
      express.text({ type: (req) => isFormContentType(req.headers['content-type']) }),
      'application/x-www-form-urlencoded, charset=utf-8',
    ],
  ]
  for (const [name, parser, type] of cases) {
    it(name, async () => {
      const app = express()
      app.use(parser)
      app.post('/echo', queryParams(), (req, res) => {
        res.json({ params: req.queryParams, parsed: req.body !== undefined })
      })
      app.use(queryParamsErrorHandler())
      const server: Server = app.listen(0, '127.0.0.1')
      await once(server, 'listening')
      try {
        const response = await send(`http://127.0.0.1:${(server.address() as AddressInfo).port}/echo`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: BODY,
        })
        expect(response.status, response.text).to.equal(200)
        expect(JSON.parse(response.text)).to.deep.equal({ params: PARAMS, parsed: true })
      } finally {
        server.close()
      }
    })
  }
})
