import { expect } from 'chai'
import { isDatabaseUnavailable } from '../../demo/database-unavailable.ts'

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code })

describe('faults: which errors the demo answers with 503 (isDatabaseUnavailable)', () => {
  it('a refused, reset or timed-out connection, on any driver, also inside AggregateError or cause', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'ETIMEDOUT',
      'EPIPE',
      'PROTOCOL_CONNECTION_LOST',
      'ER_CON_COUNT_ERROR',
      'ER_SERVER_SHUTDOWN',
    ]) {
      expect(isDatabaseUnavailable(withCode(code)), code).to.equal(true)
    }
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'connect failed'))).to.equal(true)
    expect(isDatabaseUnavailable(new Error('query failed', { cause: withCode('ECONNRESET') }))).to.equal(true)
  })

  it('PostgreSQL connection failures and shutdowns: SQLSTATE class 08, 57P01–57P03, 53300', () => {
    for (const code of ['08000', '08003', '08006', '57P01', '57P02', '57P03', '53300'])
      expect(isDatabaseUnavailable(withCode(code)), code).to.equal(true)
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).to.equal(true)
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).to.equal(
      true,
    )
  })

  it("knex's pool timeout (KnexTimeoutError)", () => {
    const timeout = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), {
      name: 'KnexTimeoutError',
    })
    expect(isDatabaseUnavailable(timeout)).to.equal(true)
  })

  it('not a bug or a bad query: syntax errors, constraint violations, type errors stay 500/409', () => {
    for (const error of [
      withCode('42601', 'syntax error'),
      withCode('23505', 'duplicate key'),
      withCode('SQLITE_ERROR'),
      withCode('ER_PARSE_ERROR'),
      new TypeError('x is undefined'),
      'text',
      null,
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).to.equal(false)
    }
  })
})
