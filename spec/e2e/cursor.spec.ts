import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from './support/demo-client.ts'

const { posts } = demoData

type Row = Record<string, unknown>
interface CursorBody {
  data: Row[]
  meta: { per_page: number; next_cursor: string | null; prev_cursor: string | null }
  links: { next: string | null; prev: string | null }
}

/** The demo's keyset pages as the reference client reads them: `/posts?limit=5`, then `cursor=…&limit=5` from `links`. */
for (const db of testDatabases()) {
  describe(`e2e cursor pages on ${db.label}`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    it('walks /posts newest first with authors, following links.next to the end and links.prev back to the start', async () => {
      const params = { with: ['author'], orders: [{ column: 'created_at', direction: 'desc' }], limit: 5 }
      const first = await demo.client.get<CursorBody>('/posts', params)
      expect(first.status).to.equal(200)
      expect(Object.keys(first.body), 'the first page keeps the body of a plain list').to.deep.equal(['data'])
      const link = first.headers.get('link') ?? ''
      expect(link).to.match(/^<\/posts\?[^>]*&cursor=[\w-]+\.[\w-]+>; rel="next"$/)
      expect(link).to.not.include('rel="prev"')
      const expected = [...posts]
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.id - a.id))
        .map((p) => p.id)
      const seen: number[] = []
      let body: CursorBody = { ...first.body, links: { next: link.slice(1, link.indexOf('>')), prev: null } }
      for (let pages = 0; ; pages++) {
        expect(pages).to.be.below(50)
        for (const row of body.data) expect((row.author as Row).id).to.equal(row.user_id)
        seen.push(...body.data.map((row) => Number(row.id)))
        if (body.links.next === null) break
        expect(body.links.next).to.match(/^\/posts\?.*&cursor=[\w-]+\.[\w-]+$/)
        const next = await fetch(`${demo.client.baseUrl}${body.links.next}`, {
          headers: { Accept: 'application/json' },
        })
        expect(next.status).to.equal(200)
        body = (await next.json()) as CursorBody
      }
      expect(seen).to.deep.equal(expected)
      const back: number[] = body.data.map((row) => Number(row.id))
      while (body.links.prev !== null) {
        const previous = await fetch(`${demo.client.baseUrl}${body.links.prev}`, {
          headers: { Accept: 'application/json' },
        })
        body = (await previous.json()) as CursorBody
        back.unshift(...body.data.map((row) => Number(row.id)))
      }
      expect(back).to.deep.equal(expected)
    })

    it('a tampered cursor is a 400 invalid_cursor problem; one of another filter is cursor_mismatch', async () => {
      const first = await demo.client.get<CursorBody>('/posts', { limit: 3 })
      const cursor = /cursor=([\w.-]+)>/.exec(first.headers.get('link') ?? '')?.[1] ?? ''
      const tampered = await demo.client.get<Row>('/posts', {
        limit: 3,
        cursor: `${cursor.slice(0, 4)}${cursor[4] === 'A' ? 'B' : 'A'}${cursor.slice(5)}`,
      })
      expect(tampered.status).to.equal(400)
      expect(tampered.body).to.include({ code: 'invalid_cursor', param: 'cursor' })
      const other = await demo.client.get<Row>('/posts', {
        limit: 3,
        cursor,
        wheres: [{ column: 'user_id', operator: '=', value: 1, boolean: 'and' }],
      })
      expect(other.status).to.equal(400)
      expect(other.body).to.include({ code: 'cursor_mismatch', param: 'cursor' })
    })
  })
}
