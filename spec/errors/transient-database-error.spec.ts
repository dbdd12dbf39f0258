import { expect } from 'chai'
import type { Knex } from 'knex'
import { TransientDatabaseError, transientDatabaseError } from '../../lib/index.ts'
import { problemResponse, serverProblemResponse } from '../../lib/http.ts'
import { testDatabases } from '../support/databases.ts'

const withCode = (code: string, extra: Record<string, unknown> = {}): Error =>
  Object.assign(new Error(`failed ${code}`), { code, ...extra })

const UNAVAILABLE = {
  status: 503,
  headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
  body: {
    type: 'about:blank',
    title: 'Service Unavailable',
    status: 503,
    detail: 'The database is briefly unavailable. Try again shortly.',
    message: 'The database is briefly unavailable. Try again shortly.',
    code: 'database_unavailable',
  },
}

describe('transient database failures (TransientDatabaseError, 503 database_unavailable)', () => {
  it('PostgreSQL: serialization failure and recovery conflict, deadlock, too many connections, shutdowns, class 08', () => {
    const expected: Array<[string, string]> = [
      ['40001', 'conflict'],
      ['40P01', 'conflict'],
      ['53300', 'overloaded'],
      ['57P01', 'shutdown'],
      ['57P02', 'shutdown'],
      ['57P03', 'shutdown'],
      ['08000', 'connection'],
      ['08006', 'connection'],
      ['08P01', 'connection'],
    ]
    for (const [code, reason] of expected) {
      const transient = transientDatabaseError(withCode(code))
      expect(transient, code).to.be.instanceOf(TransientDatabaseError)
      expect({ databaseCode: transient?.databaseCode, reason: transient?.reason }, code).to.deep.equal({
        databaseCode: code,
        reason,
      })
    }
  })

  it('MySQL/MariaDB: lock wait timeout, deadlock, too many connections, shutdown, lost connection; sockets refused or reset', () => {
    const expected: Array<[Error, string, string]> = [
      [withCode('ER_LOCK_WAIT_TIMEOUT', { errno: 1205 }), 'ER_LOCK_WAIT_TIMEOUT', 'conflict'],
      [withCode('ER_LOCK_DEADLOCK', { errno: 1213 }), 'ER_LOCK_DEADLOCK', 'conflict'],
      [withCode('ER_CON_COUNT_ERROR', { errno: 1040 }), 'ER_CON_COUNT_ERROR', 'overloaded'],
      [withCode('ER_SERVER_SHUTDOWN', { errno: 1053 }), 'ER_SERVER_SHUTDOWN', 'shutdown'],
      [withCode('PROTOCOL_CONNECTION_LOST', { fatal: true }), 'PROTOCOL_CONNECTION_LOST', 'connection'],
      [withCode('ER_UNKNOWN_CODE_FOR_TEST', { errno: 2013 }), 'ER_UNKNOWN_CODE_FOR_TEST', 'connection'],
      [withCode('ECONNREFUSED'), 'ECONNREFUSED', 'connection'],
      [withCode('ECONNRESET'), 'ECONNRESET', 'connection'],
    ]
    for (const [error, databaseCode, reason] of expected) {
      const transient = transientDatabaseError(error)
      expect({ databaseCode: transient?.databaseCode, reason: transient?.reason }, databaseCode).to.deep.equal({
        databaseCode,
        reason,
      })
    }
  })

  it("knex's pool acquire timeout, node-postgres's lost connection, and inside cause or AggregateError", () => {
    const acquire = Object.assign(
      new Error(
        'Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?',
      ),
      { name: 'KnexTimeoutError' },
    )
    expect(transientDatabaseError(acquire)?.reason).to.equal('pool')
    expect(transientDatabaseError(new Error('Connection terminated unexpectedly'))?.reason).to.equal('connection')
    expect(transientDatabaseError(new Error('ROLLBACK - Connection terminated unexpectedly'))?.reason).to.equal(
      'connection',
    )
    expect(
      transientDatabaseError(new Error("ROLLBACK - Can't add new command when connection is in closed state"))?.reason,
    ).to.equal('connection')
    expect(transientDatabaseError(new Error("select 'Connection terminated unexpectedly' - syntax error"))).to.equal(
      undefined,
    )
    expect(
      transientDatabaseError(new AggregateError([withCode('ECONNREFUSED')], 'connect failed'))?.databaseCode,
    ).to.equal('ECONNREFUSED')
    expect(transientDatabaseError(new Error('query failed', { cause: withCode('40P01') }))?.databaseCode).to.equal(
      '40P01',
    )
  })

  it("not transient: a bug, a constraint, a syntax error, a cancelled statement, knex's own query .timeout()", () => {
    const queryTimeout = Object.assign(new Error('Defined query timeout of 10ms exceeded when running query.'), {
      name: 'KnexTimeoutError',
    })
    for (const error of [
      withCode('23505'),
      withCode('42601'),
      withCode('57014'),
      withCode('ER_PARSE_ERROR', { errno: 1064 }),
      withCode('ER_QUERY_INTERRUPTED', { errno: 1317 }),
      withCode('SQLITE_BUSY'),
      queryTimeout,
      new TypeError('x'),
      'text',
      null,
    ]) {
      expect(transientDatabaseError(error), String(error)).to.equal(undefined)
      expect(problemResponse(error), String(error)).to.equal(undefined)
    }
  })

  it('problemResponse and serverProblemResponse answer 503 with Retry-After and no database code; the error keeps it for logs', () => {
    const deadlock = withCode('40P01')
    expect(problemResponse(deadlock)).to.deep.equal(UNAVAILABLE)
    expect(serverProblemResponse(deadlock)).to.deep.equal(UNAVAILABLE)
    const wrapped = transientDatabaseError(deadlock)
    expect(problemResponse(wrapped)).to.deep.equal(UNAVAILABLE)
    expect(wrapped).to.include({
      status: 503,
      code: 'database_unavailable',
      databaseCode: '40P01',
      reason: 'conflict',
      retryAfter: 1,
    })
    expect(wrapped?.cause).to.equal(deadlock)
    expect(transientDatabaseError(wrapped)).to.equal(wrapped)
  })

  for (const db of testDatabases().filter(
    (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
  )) {
    describe(`a real deadlock on ${db.label}`, function () {
      this.timeout(20_000)

      before(async () => {
        await db.knex.schema.dropTableIfExists('kqp_deadlock')
        await db.knex.schema.createTable('kqp_deadlock', (table) => {
          table.integer('id').primary()
          table.integer('n')
        })
        await db.knex('kqp_deadlock').insert([
          { id: 1, n: 0 },
          { id: 2, n: 0 },
        ])
      })

      after(async () => {
        await db.knex.schema.dropTableIfExists('kqp_deadlock')
      })

      it('two transactions locking two rows in opposite orders: the victim is answered 503 database_unavailable', async () => {
        const gate: { release?: () => void } = {}
        const both = new Promise<void>((resolve) => {
          let arrived = 0
          gate.release = () => {
            arrived += 1
            if (arrived === 2) resolve()
          }
        })
        const lockBoth = (first: number, second: number) =>
          db.knex.transaction(async (trx: Knex.Transaction) => {
            await trx('kqp_deadlock').where({ id: first }).update({ n: 1 })
            gate.release?.()
            await both
            await trx('kqp_deadlock').where({ id: second }).update({ n: 1 })
          })
        const results = await Promise.allSettled([lockBoth(1, 2), lockBoth(2, 1)])
        const failures = results
          .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
          .map((result) => result.reason as unknown)
        expect(failures).to.have.length(1)
        const transient = transientDatabaseError(failures[0])
        expect(transient?.databaseCode).to.equal(db.name === 'mysql' ? 'ER_LOCK_DEADLOCK' : '40P01')
        expect(problemResponse(failures[0])).to.deep.equal(UNAVAILABLE)
      })
    })
  }
})
