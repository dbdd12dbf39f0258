import { expect } from 'chai'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from '../e2e/support/demo-client.ts'
import { sortedIdsOf, type ListBody } from '../e2e/support/expected.ts'
import { containsOracle } from './support/contains-oracle.ts'

for (const db of testDatabases()) {
  describe(`search: the demo's posts, as the reference client sends it (${db.name})`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    it('Post.get({ search }) finds the words in a title, body or author name', async () => {
      const { status, body } = await demo.client.get<ListBody>('/posts', { search: 'sql alice' })
      expect(status).to.equal(200)
      expect(sortedIdsOf(body)).to.deep.equal([1, 2, 3, 4, 5])
    })

    it('pages a search with its total', async () => {
      const { body } = await demo.client.get<ListBody>('/posts', { search: 'learning', page: 1, limit: 1 })
      expect((body as unknown as { meta: { total: number } }).meta.total).to.equal(containsOracle('learning').length)
    })

    it('answers 400 search_not_allowed on a resource without a search', async () => {
      const { status, body } = await demo.client.get<{ code: string; param: string }>('/users', { search: 'bob' })
      expect({ status, code: body.code, param: body.param }).to.deep.equal({
        status: 400,
        code: 'search_not_allowed',
        param: 'search',
      })
    })
  })
}
