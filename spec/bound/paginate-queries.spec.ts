import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, parseQueryParams } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'

const QUERY =
  'wheres[0][column]=published&wheres[0][operator]=%3D&wheres[0][value]=true&wheres[0][boolean]=and&with[0]=author&orders[0][column]=id&page=2&limit=2'

interface Event {
  kind: 'query' | 'response'
  sql: string
  uid: string
}

for (const db of testDatabases()) {
  describe(`paginate's pool use on ${db.label}`, () => {
    const run = async (queries: 'parallel' | 'sequential' | 'transaction') => {
      const events: Event[] = []
      const onQuery = (query: { sql: string; __knexUid: string }): void =>
        void events.push({ kind: 'query', sql: query.sql, uid: query.__knexUid })
      const onResponse = (_response: unknown, query: { sql: string; __knexUid: string }): void =>
        void events.push({ kind: 'response', sql: query.sql, uid: query.__knexUid })
      db.knex.on('query', onQuery).on('query-response', onResponse)
      try {
        const params = parseQueryParams(QUERY)
        const page = await paginate(applyQueryParams(db.knex('posts'), params, relationMap), params, { queries })
        return { page, events }
      } finally {
        db.knex.off('query', onQuery).off('query-response', onResponse)
      }
    }
    const isCount = (event: Event): boolean => /count\(\*\)/i.test(event.sql)

    it('gives the same page and meta whichever way it uses the pool', async () => {
      const parallel = await run('parallel')
      expect((await run('sequential')).page).to.deep.equal(parallel.page)
      expect((await run('transaction')).page).to.deep.equal(parallel.page)
      expect(parallel.page.data).to.have.length(2)
      for (const row of parallel.page.data) expect(row['author']).to.be.an('object')
    })

    it('sequential: the count starts after the page and its eager loading have answered', async () => {
      const { events } = await run('sequential')
      const count = events.findIndex((event) => event.kind === 'query' && isCount(event))
      const responses = events.filter((event, index) => event.kind === 'response' && index < count)
      expect(responses).to.have.length(2)
      expect(
        events.filter((event) => event.kind === 'query' && !/^(begin|commit|set transaction)/i.test(event.sql)),
      ).to.have.length(3)
    })

    it('transaction: page, eager loading and count run on one connection inside BEGIN … COMMIT', async () => {
      const { events } = await run('transaction')
      const sqls = events.filter((event) => event.kind === 'query').map((event) => event.sql.trim().toLowerCase())
      const begin = {
        sqlite: /^begin/,
        postgres: /^begin transaction isolation level repeatable read read only/,
        mysql: /^set transaction isolation level repeatable read/,
      }
      expect(sqls[0]).to.match(begin[db.name])
      expect(sqls.at(-1)).to.match(/^commit/)
      expect(sqls.filter((sql) => /count\(\*\)/.test(sql))).to.have.length(1)
    })
  })
}
