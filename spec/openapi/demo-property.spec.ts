import { expect } from 'chai'
import fc from 'fast-check'
import { demoOpenApiDocument } from '../../demo/openapi.ts'
import { RESOURCES } from '../../demo/resources.ts'
import { OPERATORS } from '../../lib/index.ts'
import type { JsonSchema } from '../../lib/openapi.ts'
import { testDatabases } from '../support/databases.ts'
import { encodeClientQuery, startDemo, type RunningDemo } from '../e2e/support/demo-client.ts'
import { fuzzSettings } from '../reliability/support/fuzz-settings.ts'
import { send } from '../integrations/support/send.ts'
import { componentValidators } from './support/document-validator.ts'
import { arbitraryOf, type Generated } from './support/schema-arbitrary.ts'

const document = demoOpenApiDocument()
const schemas = document.components.schemas
const validator = componentValidators(document)

type Query = { [key: string]: Generated }

/**
 * A query object of the operation's `x-kqp-query-schema`, kept to what the document's `x-kqp-constraints` say:
 * lists of at most 3 items (so at most 6 relation conditions of the 10 allowed and 3 relation orders of 3), and
 * with `distinct` neither `orders` nor `with` (which may name an aggregate). Only values its validator accepts.
 * No `cursor`: a cursor is opaque and comes from the page before (the cursor walk below follows them).
 */
function queryArbitrary(name: string): fc.Arbitrary<Query> {
  const validate = validator(`${name}.query`)
  const schema = schemas[`${name}.query`] as JsonSchema
  const properties = { ...(schema['properties'] as Record<string, JsonSchema>) }
  delete properties['relationsExists']
  expect(properties).to.have.property('cursor')
  delete properties['cursor']
  return (arbitraryOf({ type: 'object', properties }, schemas) as fc.Arbitrary<Query>)
    .map((query) => {
      if (query['distinct'] === undefined) return query
      const { orders: _, with: __, ...rest } = query
      return rest
    })
    .filter((query) => validate(query))
}

/** Whether the problem body is the document's 400: the code enum, param, message. */
function expectQueryProblem(body: unknown, what: string): void {
  const validate = validator('QueryProblem')
  expect(validate(body), `${what}: ${JSON.stringify(validate.errors)} ${JSON.stringify(body)}`).to.equal(true)
}

const whereBranches = (name: string): Array<{ columns: string[]; operators: string[] }> =>
  (
    (
      schemas[`${name}.query.wheres`]?.['items'] as
        | { anyOf: Array<{ properties: Record<string, JsonSchema> }> }
        | undefined
    )?.anyOf ?? []
  ).map(({ properties }) => ({
    columns: properties['column']?.['enum'] as string[],
    operators: properties['operator']?.['enum'] as string[],
  }))

/** Requests just outside the schema of `name`: each is refused by the document's validator, and should be a 400. */
function outsideArbitrary(name: string): fc.Arbitrary<{ why: string; query: Query }> {
  const limit = Number(schemas[`${name}.query.limit`]?.['maximum'])
  const branches = whereBranches(name)
  const columns = [...new Set(branches.flatMap((branch) => branch.columns))]
  const operatorsOf = (column: string): Set<string> =>
    new Set(branches.filter((branch) => branch.columns.includes(column)).flatMap((branch) => branch.operators))
  const barred = columns.flatMap((column) =>
    OPERATORS.filter((operator) => !operatorsOf(column).has(operator)).map((operator) => ({ column, operator })),
  )
  const orderable = new Set(
    (schemas[`${name}.query.orders`]?.['items'] as { properties: { column: { enum: string[] } } } | undefined)
      ?.properties.column.enum,
  )
  const name_ = fc.stringMatching(/^[a-z][a-z_]{0,12}$/).map((text) => `zz_${text}`)
  return fc.oneof(
    name_.map((column) => ({ why: 'unknown column', query: { wheres: [{ column, operator: '=', value: '1' }] } })),
    fc
      .integer({ min: limit + 1, max: limit * 100 })
      .map((value) => ({ why: 'limit over maxLimit', query: { limit: value } })),
    fc.constantFrom(...barred).map(({ column, operator }) => ({
      why: `${operator} on ${column}`,
      query: {
        wheres: [
          { column, operator, value: operator.endsWith('etween') ? ['a', 'b'] : operator.endsWith('n') ? ['a'] : 'a' },
        ],
      },
    })),
    fc
      .constantFrom(...columns.filter((column) => !orderable.has(column)), 'zz_nothing')
      .map((column) => ({ why: `order by ${column}`, query: { orders: [{ column, direction: 'asc' }] } })),
    name_.map((relation) => ({ why: 'unknown with', query: { with: [relation] } })),
    name_.map((scope) => ({ why: 'unknown scope', query: { scopes: [scope] } })),
    fc
      .constantFrom('abc', '1.5', '')
      .map((value) => ({ why: `id = '${value}'`, query: { wheres: [{ column: 'id', operator: '=', value }] } })),
  )
}

for (const db of testDatabases()) {
  describe(`the demo's OpenAPI document against the demo on ${db.label}`, function () {
    this.timeout(240_000)
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    for (const name of RESOURCES) {
      const settings = fuzzSettings(10)
      it(`GET /${name}: a request built from the document's query schema is answered 200, and its body validates against the response schema (seed ${settings.seed}, ${settings.numRuns} runs)`, async () => {
        const validate = validator(`${name}.list`)
        await fc.assert(
          fc.asyncProperty(queryArbitrary(name), async (query) => {
            const response = await demo.client.get(`/${name}`, query)
            const what = `/${name}?${encodeClientQuery(query)}`
            expect(response.status, `${what}: ${JSON.stringify(response.body)}`).to.equal(200)
            expect(validate(response.body), `${what}: ${JSON.stringify(validate.errors)}`).to.equal(true)
          }),
          { seed: settings.seed, numRuns: settings.numRuns },
        )
      })

      it(`GET /${name}: a request just outside the schema (unknown column, operator, order, relation, scope, a value of the wrong type, limit over maxLimit) is a 400 problem (seed ${settings.seed}, ${settings.numRuns} runs)`, async () => {
        const validate = validator(`${name}.query`)
        await fc.assert(
          fc.asyncProperty(outsideArbitrary(name), async ({ why, query }) => {
            expect(validate(query), `${why}: outside the schema`).to.equal(false)
            const response = await demo.client.get(`/${name}`, query)
            expect(response.status, `${why}: /${name}?${encodeClientQuery(query)}`).to.equal(400)
            expect(response.contentType).to.match(/^application\/problem\+json/)
            expectQueryProblem(response.body, why)
          }),
          { seed: settings.seed, numRuns: settings.numRuns },
        )
      })
    }

    it("the demo's 431 (a URL over the header limit) and 413 (a body over bodyLimit) validate against the document's TooLargeProblem", async () => {
      const validate = validator('TooLargeProblem')
      const long = await send(`${demo.client.baseUrl}/posts?columns[0]=${'x'.repeat(20_000)}`)
      expect(long.status).to.equal(431)
      expect(long.contentType).to.match(/^application\/problem\+json/)
      expect(validate(JSON.parse(long.text)), JSON.stringify(validate.errors)).to.equal(true)
      const body = `columns[0]=${'x'.repeat(1_100_000)}`
      const large = await send(`${demo.client.baseUrl}/posts`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      expect(large.status).to.equal(413)
      expect(validate(JSON.parse(large.text)), JSON.stringify(validate.errors)).to.equal(true)
      expect(validate({ ...JSON.parse(large.text), code: 'too_big' })).to.equal(false)
    })

    it('GET /<name>/{id}: the item route answers its row schema, with relations and aggregates', async () => {
      const validate = validator('users')
      const response = await demo.client.get<{ data: unknown }>('/users/1', {
        with: ['posts.comments', 'team', 'avatar', 'postsCount', 'postsViewsSum', 'postsRatingAvg'],
      })
      expect(response.status).to.equal(200)
      expect(validate(response.body.data), JSON.stringify(validate.errors)).to.equal(true)
      expect(response.body.data).to.include.keys(
        'posts',
        'team',
        'avatar',
        'posts_count',
        'posts_views_sum',
        'posts_rating_avg',
      )
    })

    it("cursor pages: the first keyset page, the next one through the Link header and the previous one through links validate against the list schema with CursorMeta and CursorLinks; a cursor with page is the document's 400", async () => {
      const validate = validator('posts.list')
      const query = { orders: [{ column: 'title', direction: 'desc' }], with: ['author'], limit: 2 }
      const first = await demo.client.get<Record<string, unknown>>('/posts', query)
      expect(first.status).to.equal(200)
      expect(first.body).to.have.keys('data')
      expect(validate(first.body), JSON.stringify(validate.errors)).to.equal(true)
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
      expect(next, 'the Link header names the next page').to.be.a('string')
      const second = await send(`${demo.client.baseUrl}${next}`)
      expect(second.status).to.equal(200)
      const body = JSON.parse(second.text) as {
        data: Array<{ id: number }>
        meta: { next_cursor: string | null; prev_cursor: string | null }
        links: { prev: string | null }
      }
      expect(body).to.have.keys('data', 'meta', 'links')
      expect(validate(body), JSON.stringify(validate.errors)).to.equal(true)
      expect(validate({ ...body, meta: { ...body.meta, total: 1 } }), 'CursorMeta takes no total').to.equal(false)
      const back = await send(`${demo.client.baseUrl}${body.links.prev}`)
      expect(back.status).to.equal(200)
      const previous = JSON.parse(back.text) as { data: Array<{ id: number }> }
      expect(validate(previous), JSON.stringify(validate.errors)).to.equal(true)
      expect(previous.data.map((row) => row.id)).to.deep.equal(
        (first.body['data'] as Array<{ id: number }>).map((row) => row.id),
      )
      const mixed = await demo.client.get('/posts', { ...query, page: 2, cursor: body.meta.prev_cursor ?? '' })
      expect(mixed.status).to.equal(400)
      expectQueryProblem(mixed.body, 'cursor with page')
      expect((mixed.body as { code: string }).code).to.equal('invalid_cursor')
      expect(validator('posts.query')({ ...query, page: 2, cursor: 'x' }), 'the query schema refuses both').to.equal(
        false,
      )
      expect(validator('posts.query')({ ...query, offset: 2, cursor: 'x' })).to.equal(false)
      expect(validator('posts.query')({ ...query, cursor: 'x' })).to.equal(true)
    })

    it('paginate: { data, meta } validates against the list schema with PageMeta; a row with a key the map does not declare would not', async () => {
      const validate = validator('posts.list')
      const response = await demo.client.get<{ data: Array<Record<string, unknown>>; meta: unknown }>('/posts', {
        page: 2,
        limit: 3,
        with: ['author', 'tags', 'images.imageable'],
      })
      expect(response.status).to.equal(200)
      expect(response.body.meta).to.include.keys('total', 'last_page')
      expect(validate(response.body), JSON.stringify(validate.errors)).to.equal(true)
      const leaked = { ...response.body, data: response.body.data.map((row) => ({ ...row, deleted_at: null })) }
      expect(validate(leaked)).to.equal(false)
    })
  })
}
