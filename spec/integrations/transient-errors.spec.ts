import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, type QueryParams } from '../../lib/index.ts'
import { integrationApps } from '../support/integration-apps.ts'

const list = (db: Knex, params: QueryParams) => paginate(applyQueryParams(db('users'), params, relationMap), params)

const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error)

/** Each integration on its framework, in the shape the database-time spec uses. */
export const TRANSIENT_APPS = integrationApps('/users', list, describeError)

/** A response's status, the headers a client retries on, and its body. */
export async function answerOf(
  url: string,
): Promise<{ status: number; type: string | null; retryAfter: string | null; body: string }> {
  const response = await fetch(url)
  return {
    status: response.status,
    type: response.headers.get('content-type')?.split(';')[0] ?? null,
    retryAfter: response.headers.get('retry-after'),
    body: await response.text(),
  }
}

export const UNAVAILABLE_BODY = {
  type: 'about:blank',
  title: 'Service Unavailable',
  status: 503,
  detail: 'The database is briefly unavailable. Try again shortly.',
  message: 'The database is briefly unavailable. Try again shortly.',
  code: 'database_unavailable',
}

/** knex logs each failed acquire; the test reads the error from the app's log instead. */
const QUIET = { warn: () => undefined, error: () => undefined, debug: () => undefined, deprecate: () => undefined }

for (const [name, start] of Object.entries(TRANSIENT_APPS)) {
  describe(`transient database failures through ${name}`, function () {
    this.timeout(10_000)

    it("knex's pool giving no connection in time: 503 problem+json database_unavailable with Retry-After, the error logged", async () => {
      const db = knex({
        client: 'better-sqlite3',
        connection: { filename: ':memory:' },
        useNullAsDefault: true,
        pool: { min: 1, max: 1 },
        acquireConnectionTimeout: 150,
        log: QUIET,
      })
      const held = await db.client.acquireConnection()
      const app = await start(db)
      try {
        const answer = await answerOf(`${app.url}/users?limit=2`)
        expect({ status: answer.status, type: answer.type, retryAfter: answer.retryAfter }).to.deep.equal({
          status: 503,
          type: 'application/problem+json',
          retryAfter: '1',
        })
        expect(JSON.parse(answer.body)).to.deep.equal(UNAVAILABLE_BODY)
        expect(answer.body).not.to.match(/knex|timeout|pool|select/i)
        expect(app.logged.join('\n')).to.include('Timeout acquiring a connection')
      } finally {
        await db.client.releaseConnection(held)
        await app.close()
        await db.destroy()
      }
    })
  })
}
