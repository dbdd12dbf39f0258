import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { mysqlJoinLimitPreference } from '../../lib/dialect/mysql-join-limit.ts'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../../lib/index.ts'
import { testDatabases } from '../support/databases.ts'

/**
 * Issue 35 point 5, MariaDB: a bounded statement runs with `optimizer_join_limit_pref_ratio = 100` where the session
 * leaves it at 0, so that a page ordered by a base column and filtered through its belongsTo walks the order's index
 * (figure 16's random requests: 1.3 s sorting 300k posts, 16 ms walking `posts(created_at)`).
 */

/** A mysql2 connection as far as the hook uses it: the statements it was sent, each answered by `answer`. */
function session(answer: (sql: string) => unknown) {
  const sent: string[] = []
  return {
    sent,
    threadId: 7,
    query(sql: string, callback: (error: unknown, rows: unknown) => void) {
      sent.push(sql)
      let result: unknown
      try {
        result = answer(sql)
      } catch (error) {
        callback(error, undefined)
        return
      }
      callback(null, result)
    },
  }
}

const ASK = 'select @@session.optimizer_join_limit_pref_ratio as ratio'

describe('mysqlJoinLimitPreference: the statements it sends', () => {
  it('asks the session once, then sets the ratio before each statement and queues setting it back after', async () => {
    const zero = session(() => [{ ratio: 0 }])
    const restore = await mysqlJoinLimitPreference(zero)
    expect(zero.sent).to.deep.equal([ASK, 'set session optimizer_join_limit_pref_ratio = 100'])
    await restore?.()
    await mysqlJoinLimitPreference(zero)
    expect(zero.sent.slice(2)).to.deep.equal([
      'set session optimizer_join_limit_pref_ratio = 0',
      'set session optimizer_join_limit_pref_ratio = 100',
    ])
  })

  it('changes nothing where the session sets a ratio, nor where the server has none (MySQL), asking once', async () => {
    const own = session(() => [{ ratio: 10 }])
    expect(await mysqlJoinLimitPreference(own)).to.equal(undefined)
    expect(await mysqlJoinLimitPreference(own)).to.equal(undefined)
    expect(own.sent).to.deep.equal([ASK])
    const mysql = session(() => {
      throw new Error("ER_UNKNOWN_SYSTEM_VARIABLE: Unknown system variable 'optimizer_join_limit_pref_ratio'")
    })
    expect(await mysqlJoinLimitPreference(mysql)).to.equal(undefined)
    expect(await mysqlJoinLimitPreference(mysql)).to.equal(undefined)
    expect(mysql.sent).to.deep.equal([ASK])
    expect(await mysqlJoinLimitPreference({ query: () => undefined })).to.equal(undefined)
  })
})

const map = defineRelationMap({
  jl_users: { columns: { id: 'integer', score: 'number' } },
  jl_posts: {
    columns: { id: 'integer', user_id: 'integer', created_at: 'integer' },
    relations: { author: { type: 'belongsTo', table: 'jl_users', foreignKey: 'user_id', required: true } },
  },
})

const RATIO = '@@session.optimizer_join_limit_pref_ratio'

for (const db of testDatabases().filter((each) => each.name === 'mysql')) {
  describe(`the join order of a bounded page (${db.label})`, function () {
    this.timeout(30_000)
    let one: Knex
    let supported = false

    before(async () => {
      one = knex({ ...db.knex.client.config, pool: { min: 1, max: 1 } })
      try {
        await one.raw(`select ${RATIO}`)
        supported = true
      } catch {
        supported = false
      }
      await one.schema.dropTableIfExists('jl_posts')
      await one.schema.dropTableIfExists('jl_users')
      await one.raw('create table jl_users (id int not null primary key, score double not null, index (score))')
      await one.raw(
        'create table jl_posts (id int not null primary key, user_id int not null, created_at int not null, index (user_id), index (created_at))',
      )
      await one.raw('insert into jl_users select seq, (seq * 7919) % 1000 / 10.0 from seq_1_to_4000')
      await one.raw('insert into jl_posts select seq, (seq * 2654435761) % 4000 + 1, seq * 30 from seq_1_to_80000')
      await one.raw('analyze table jl_users, jl_posts')
    })

    after(async () => {
      await one?.schema.dropTableIfExists('jl_posts')
      await one?.schema.dropTableIfExists('jl_users')
      await one?.destroy()
    })

    beforeEach(function () {
      if (supported) return
      if (process.env['CI'] === 'true') throw new Error('the CI server has no optimizer_join_limit_pref_ratio')
      this.test?.skip()
    })

    const page = (value: number) =>
      parseQueryParams(
        `wheres[0][column]=author.score&wheres[0][operator]=%3E&wheres[0][value]=${value}&orders[0][column]=created_at&orders[0][direction]=desc&limit=20&page=3`,
      )

    it('a bounded statement runs with the ratio at 100; the next statement on the connection has it at 0 again', async () => {
      const bounded = applyQueryParams(one('jl_posts').select(one.raw(`${RATIO} as ratio`)), page(50), map, {
        timeout: 5_000,
      })
      const rows = (await bounded) as Array<{ ratio: unknown }>
      expect(rows).to.have.length(20)
      expect(rows.map((row) => Number(row.ratio))).to.deep.equal(Array(20).fill(100))
      const [after] = (await one.raw(`select ${RATIO} as ratio`)) as [Array<{ ratio: unknown }>]
      expect(Number(after[0]?.ratio)).to.equal(0)
      const plain = (await applyQueryParams(
        one('jl_posts').select(one.raw(`${RATIO} as ratio`)),
        page(50),
        map,
      )) as Array<{
        ratio: unknown
      }>
      expect(Number(plain[0]?.ratio), 'an unbounded read runs as the session is').to.equal(0)
    })

    it('with the ratio, a broad filter walks posts(created_at); a narrow one still reads its authors first', async () => {
      const explain = async (value: number, ratio: number) => {
        const { sql, bindings } = applyQueryParams(one('jl_posts'), page(value), map).toSQL()
        const [lines] = (await one.raw(
          `set statement optimizer_join_limit_pref_ratio = ${ratio} for explain ${sql}`,
          bindings,
        )) as [Array<{ table: string; key: string | null; Extra: string }>]
        return lines.map((line) => `${line.table} ${line.key ?? '-'}${/filesort/.test(line.Extra) ? ' filesort' : ''}`)
      }
      expect((await explain(50, 0))[0]).to.equal('jl_users score filesort')
      expect(await explain(50, 100)).to.deep.equal(['jl_posts created_at', 'jl_users PRIMARY'])
      expect((await explain(99.8, 100))[0]).to.match(/^jl_users score/)
    })
  })
}
