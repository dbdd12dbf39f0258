import { Validator } from '@seriousme/openapi-schema-validator'
import { expect } from 'chai'
import { mkdtempSync, rmSync } from 'node:fs'
import knex from 'knex'
import { maxHeaderSize } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoData } from '../../fixtures/data.ts'
import { CLIENT_HEADERS, encodeClientQuery } from '../e2e/support/demo-client.ts'
import type { OpenApiDocument } from '../../lib/openapi.ts'
import { componentValidators } from '../openapi/support/document-validator.ts'
import { startExample, type RunningExample } from './support/example-process.ts'
import { send, type SentResponse } from './support/send.ts'

/** Every example, started as `PORT=<port> npm run example:<name>`. */
const EXAMPLES = ['express', 'fastify', 'koa', 'hono', 'node-http'] as const

interface Page {
  data: Array<Record<string, unknown> & { author?: Record<string, unknown> | null }>
  meta: {
    current_page: number
    per_page: number
    total: number
    last_page: number
    from: number | null
    to: number | null
  }
}

const json = <T>(response: SentResponse, status = 200): T => {
  expect(response.status, response.text).to.equal(status)
  return JSON.parse(response.text) as T
}

const expectProblem = (response: SentResponse, status: number, code: string): Record<string, unknown> => {
  expect(response.contentType).to.match(/^application\/problem\+json/)
  const body = json<Record<string, unknown>>(response, status)
  expect(body['code']).to.equal(code)
  expect(body['status']).to.equal(status)
  expect(response.text).not.to.match(/\n\s+at |\.ts:\d|node_modules|"stack"/)
  expect(response.text).not.to.include(process.cwd())
  return body
}

/** Post ids of user 1, newest id first. */
const USER_1_POSTS = demoData.posts
  .filter((post) => post.user_id === 1)
  .map((post) => post.id)
  .sort((a, b) => b - a)
/** An `in` list of 700 ids: every post's id, and ids that match nothing. */
const MANY_IDS = Array.from({ length: 700 }, (_, index) => (index < 100 ? index + 1 : 10_000_000 + index))
const MANY_IDS_QUERY = encodeClientQuery({
  wheres: [{ column: 'id', operator: 'in', value: MANY_IDS, boolean: 'and' }],
})

describe('examples (each started as a child process)', function () {
  this.timeout(120_000)
  const directory = mkdtempSync(join(tmpdir(), 'kqp-examples-'))
  const running = new Map<string, RunningExample>()

  before(async () => {
    const started = await Promise.allSettled(
      EXAMPLES.map((name) => startExample(name, `sqlite:${join(directory, `${name}.sqlite`)}`)),
    )
    for (const result of started) if (result.status === 'fulfilled') running.set(result.value.name, result.value)
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected')
    if (failed !== undefined) throw failed.reason
  })
  after(async () => {
    await Promise.all([...running.values()].map((example) => example.stop()))
    rmSync(directory, { recursive: true, force: true })
  })

  const example = (name: string): RunningExample => {
    const found = running.get(name)
    if (found === undefined) throw new Error(`example ${name} is not running`)
    return found
  }

  it('an example refuses a database holding tables the demo did not create, as the demo does', async () => {
    const file = join(directory, 'foreign.sqlite')
    const foreign = knex({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true })
    await foreign.schema.createTable('orders', (table) => table.increments('id'))
    await foreign.destroy()
    const failure = await startExample('node-http', `sqlite:${file}`).then(
      async (started) => {
        await started.stop()
        throw new Error('the example started on a foreign database')
      },
      (error: unknown) => String(error),
    )
    expect(failure)
      .to.include('exited with 1')
      .and.include('Refusing to migrate, seed or reset this database')
      .and.include('orders')
    expect(failure).not.to.match(/\n\s+at /)
  })

  for (const name of EXAMPLES)
    it(`example ${name} serves keyset pages: /posts/feed?limit=3, then links.next to the end and links.prev back, each page as its OpenAPI document says`, async () => {
      const document = json<OpenApiDocument>(await send(`${example(name).url}/openapi.json`))
      const validate = componentValidators(document)('postsFeed.list')
      interface FeedPage {
        data: Array<{ id: number }>
        meta: { prev_cursor: string | null; next_cursor: string | null }
        links: { next: string | null; prev: string | null }
      }
      const read = async (link: string): Promise<FeedPage> => {
        const body = json<FeedPage>(
          await send(new URL(link, example(name).url).href, { headers: { ...CLIENT_HEADERS } }),
        )
        expect(validate(body), `${link}: ${JSON.stringify(validate.errors)}`).to.equal(true)
        return body
      }
      const newestFirst = demoData.posts.map((post) => post.id).sort((a, b) => b - a)
      const forward: number[][] = []
      let page = await read(
        `/posts/feed?${encodeClientQuery({ orders: [{ column: 'id', direction: 'desc' }], limit: 3 })}`,
      )
      expect(page.meta.prev_cursor).to.equal(null)
      expect(page.links.prev).to.equal(null)
      forward.push(page.data.map((post) => post.id))
      while (page.links.next !== null && forward.length < 100) {
        expect(page.links.next).to.include(`cursor=${page.meta.next_cursor}`)
        page = await read(page.links.next)
        forward.push(page.data.map((post) => post.id))
      }
      expect(forward.flat()).to.deep.equal(newestFirst)
      expect(forward).to.have.length(Math.ceil(newestFirst.length / 3))
      const backward: number[][] = [forward.at(-1) ?? []]
      while (page.links.prev !== null && backward.length < 100) {
        page = await read(page.links.prev)
        backward.unshift(page.data.map((post) => post.id))
      }
      expect(backward).to.deep.equal(forward)
    })

  for (const name of EXAMPLES) {
    describe(`example ${name}`, () => {
      it('serves a filtered, ordered page with relations, as the client encodes it', async () => {
        const query = encodeClientQuery({
          wheres: [{ column: 'user_id', operator: '=', value: 1, boolean: 'and' }],
          with: ['author'],
          orders: [{ column: 'id', direction: 'desc' }],
          page: 2,
          limit: 2,
        })
        const page = json<Page>(await send(`${example(name).url}/posts?${query}`, { headers: { ...CLIENT_HEADERS } }))
        expect(page.data.map((post) => post.id)).to.deep.equal(USER_1_POSTS.slice(2, 4))
        expect(page.data.map((post) => post.author?.['name'])).to.deep.equal(['Alice', 'Alice'])
        expect(page.data[0]?.author).not.to.have.property('password')
        expect(page.meta).to.deep.equal({
          current_page: 2,
          per_page: 2,
          from: 3,
          to: 4,
          total: USER_1_POSTS.length,
          last_page: Math.ceil(USER_1_POSTS.length / 2),
        })
      })

      it('serves /users with a relation filter value and a has-many relation', async () => {
        const query = encodeClientQuery({
          wheres: [{ column: 'name', operator: 'like', value: 'alice', boolean: 'and' }],
          with: ['posts'],
          orders: [{ column: 'id', direction: 'asc' }],
        })
        const page = json<{ data: Array<{ id: number; posts: Array<{ id: number }> }> }>(
          await send(`${example(name).url}/users?${query}`, { headers: { ...CLIENT_HEADERS } }),
        )
        const alices = demoData.users.filter((user) => user.name.toLowerCase() === 'alice').map((user) => user.id)
        expect(page.data.map((user) => user.id)).to.deep.equal(alices)
        expect(page.data[0]?.posts.map((post) => post.id).sort((a, b) => a - b)).to.deep.equal(
          [...USER_1_POSTS].sort((a, b) => a - b),
        )
      })

      it('answers a column outside the relation map with 400 problem+json, no stack, no file path', async () => {
        const query = encodeClientQuery({ wheres: [{ column: 'password', operator: '=', value: 'x', boolean: 'and' }] })
        const body = expectProblem(
          await send(`${example(name).url}/users?${query}`, { headers: { ...CLIENT_HEADERS } }),
          400,
          'unknown_column',
        )
        expect(body['param']).to.equal('wheres[0][column]')
      })

      it(`reads a 700-value in list sent as a form body (${MANY_IDS_QUERY.length} bytes, over the ${maxHeaderSize}-byte header limit)`, async () => {
        expect(MANY_IDS_QUERY.length).to.be.above(maxHeaderSize)
        const url = `${example(name).url}/posts/search?${encodeClientQuery({ with: ['author'], limit: 50 })}`
        const page = json<Page>(
          await send(url, { method: 'POST', headers: { ...CLIENT_HEADERS }, body: MANY_IDS_QUERY }),
        )
        expect(page.meta.total).to.equal(demoData.posts.length)
        expect(page.data.every((post) => post.author === null || typeof post.author?.['name'] === 'string')).to.equal(
          true,
        )
      })

      it('serves its OpenAPI 3.1 document at /openapi.json: valid, describing the routes it serves', async () => {
        const document = json<{ paths: Record<string, Record<string, unknown>> }>(
          await send(`${example(name).url}/openapi.json`),
        )
        expect((await new Validator().validate(document)).valid).to.equal(true)
        expect(
          Object.entries(document.paths).map(([path, item]) => `${Object.keys(item).join(',')} ${path}`),
        ).to.deep.equal([
          'get /users',
          'post /users/search',
          'get /users/feed',
          'get /posts',
          'post /posts/search',
          'get /posts/feed',
        ])
      })

      it('answers the same query in the URL with 431 problem+json', async () => {
        expectProblem(
          await send(`${example(name).url}/posts?${MANY_IDS_QUERY}`, { headers: { ...CLIENT_HEADERS } }),
          431,
          'headers_too_large',
        )
      })
    })
  }
})
