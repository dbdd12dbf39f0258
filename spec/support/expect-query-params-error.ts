import { expect } from 'chai'
import { QueryParamsError, type QueryParamsErrorCode } from '../../lib/errors/query-params-error.ts'

/** What a rejected request must report. */
export interface ExpectedError {
  code: QueryParamsErrorCode
  param: string
  /** When given, `error.allowed` must have exactly these members (in any order). */
  allowed?: readonly string[]
}

/**
 * Asserts that `run` throws a {@link QueryParamsError} with status 400, the exact `code` and `param`,
 * and (when given) `allowed`; returns the error for further checks.
 *
 * @example
 * expectQueryParamsError(() => parseQueryParams('limit=0'), { code: 'invalid_number', param: 'limit' })
 */
export function expectQueryParamsError(run: () => unknown, expected: ExpectedError): QueryParamsError {
  let thrown: unknown
  try {
    run()
  } catch (error) {
    thrown = error
  }
  expect(thrown, 'expected a QueryParamsError to be thrown').to.be.instanceOf(QueryParamsError)
  const error = thrown as QueryParamsError
  expect(error.status).to.equal(400)
  expect({ code: error.code, param: error.param }).to.deep.equal({ code: expected.code, param: expected.param })
  expect(error.message).to.include(expected.param)
  if (expected.allowed !== undefined) expect(error.allowed).to.have.members([...expected.allowed])
  return error
}
