import { expect } from 'chai'
import knex from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { boundText, MAX_ALLOWED, MAX_ECHO_LENGTH, MAX_MESSAGE_LENGTH } from '../../lib/errors/cut-text.ts'
import { QueryParamsError } from '../../lib/errors/query-params-error.ts'
import { errorResponse } from '../../lib/http/error-response.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'

const MB = 1024 * 1024
/** The most a problem body may take, in bytes of JSON, whatever the client sent. */
const MAX_BODY_BYTES = 8192

const bodyBytes = (error: QueryParamsError): number => Buffer.byteLength(JSON.stringify(errorResponse(error)?.body))

/** The error `run` throws, checked to be bounded: param, message, allowed, and the errorResponse body. */
function bounded(run: () => unknown): QueryParamsError {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  expect(thrown).to.be.instanceOf(QueryParamsError)
  const error = thrown as QueryParamsError
  expect(error.param.length).to.be.at.most(MAX_ECHO_LENGTH + 30)
  expect(error.message.length).to.be.at.most(MAX_MESSAGE_LENGTH + 30)
  expect(error.message).to.include(error.param)
  expect(bodyBytes(error)).to.be.at.most(MAX_BODY_BYTES)
  return error
}

describe('errors stay small whatever the client sends', () => {
  const db = knex({ client: 'pg' })
  after(() => db.destroy())

  it('cuts a client text to 100 characters, marked with its original length, never splitting a surrogate pair', () => {
    expect(boundText('a'.repeat(100))).to.equal('a'.repeat(100))
    expect(boundText('a'.repeat(101))).to.equal(`${'a'.repeat(100)}…(101 characters)`)
    expect(boundText(`${'a'.repeat(99)}😀b`)).to.equal(`${'a'.repeat(99)}…(102 characters)`)
    expect(boundText('x'.repeat(500), 400)).to.equal(`${'x'.repeat(400)}…(500 characters)`)
  })

  it('a 1 MB malformed key: param and message cut, the body under 1 KB (was 3 MB)', () => {
    const key = `wheres[${'x'.repeat(MB)}`
    for (const strict of [false, true]) {
      const error = bounded(() => parseQueryParams(`${key}=1`, { strict }))
      expect(error.code).to.equal('invalid_syntax')
      const cut = `wheres[${'x'.repeat(93)}…(${key.length} characters)`
      expect(error.param).to.equal(cut)
      expect(error.message).to.equal(`Parameter '${cut}' is not a valid bracket key: a '[' is never closed.`)
      expect(bodyBytes(error)).to.be.below(1024)
    }
  })

  it('a 1 MB unknown key with strict, and a 1 MB key sent both in brackets and plain', () => {
    const name = 'k'.repeat(MB)
    const unknown = bounded(() => parseQueryParams(`${name}=1`, { strict: true }))
    expect({ code: unknown.code, param: unknown.param }).to.deep.equal({
      code: 'unknown_parameter',
      param: boundText(name),
    })
    const conflict = bounded(() => parseQueryParams(`with=a&with[${name}]=b`))
    expect(conflict.code).to.equal('invalid_syntax')
    expect(conflict.param).to.equal(boundText(`with[${name}]`))
  })

  it('a 1 MB column name and a 1 MB relation name: the quoted name is cut in the message', () => {
    const column = 'c'.repeat(MB)
    const params = parseQueryParams(`wheres[0][column]=${column}&wheres[0][value]=1`)
    const error = bounded(() => applyQueryParams(db('users'), params, relationMap))
    expect({ code: error.code, param: error.param }).to.deep.equal({
      code: 'unknown_column',
      param: 'wheres[0][column]',
    })
    expect(error.message).to.equal(
      `Parameter 'wheres[0][column]': '${boundText(column)}' is not a column of users that can be used here.`,
    )
    const relation = bounded(() =>
      applyQueryParams(db('users'), parseQueryParams(`with[0]=${'r'.repeat(MB)}`), relationMap),
    )
    expect(relation.code).to.equal('unknown_relation')
    expect(relation.message).to.include(`'${boundText('r'.repeat(MB))}'`)
  })

  it('a 15 KB URL through errorResponse: a body under 1 KB (was 45 KB)', () => {
    const url = `/users?limit=2&${'with%5B'.repeat(2200)}=1`
    expect(url.length).to.be.above(15_000)
    const error = bounded(() => parseQueryParams(url))
    expect(error.code).to.equal('invalid_syntax')
    expect(bodyBytes(error)).to.be.below(1024)
    const response = errorResponse(error)
    expect(response?.body.param).to.equal(error.param)
    expect(response?.body.detail).to.equal(error.message)
  })

  it('a key of control characters, escaped six times over in JSON, still under 8 KB', () => {
    const error = bounded(() => parseQueryParams(`with[${'%01'.repeat(MB / 3)}`, { strict: true }))
    expect(bodyBytes(error)).to.be.above(1024)
  })

  it('caps allowed to 50 entries of at most 100 characters', () => {
    const allowed = Array.from({ length: 500 }, (_, index) => `${index}`.padEnd(1000, 'z'))
    const error = new QueryParamsError(`Parameter 'with[0]' must be one of ${allowed.join(', ')}.`, {
      code: 'unknown_relation',
      param: 'with[0]',
      allowed,
    })
    expect(error.allowed).to.have.length(MAX_ALLOWED)
    expect(error.allowed?.[0]).to.equal(boundText(allowed[0] as string))
    expect(error.message.length).to.be.at.most(MAX_MESSAGE_LENGTH + 30)
    expect(bodyBytes(error)).to.be.at.most(MAX_BODY_BYTES)
    expectQueryParamsError(
      () => {
        throw error
      },
      { code: 'unknown_relation', param: 'with[0]' },
    )
  })

  it('leaves a short error untouched', () => {
    const error = bounded(() => parseQueryParams('with[x]=posts'))
    expect(error.toJSON()).to.deep.equal({
      message: "Parameter 'with[x]' is not a list index; expected with[0], with[1], ….",
      code: 'invalid_syntax',
      param: 'with[x]',
    })
  })
})
