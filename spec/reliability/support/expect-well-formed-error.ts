import { expect } from 'chai'
import type { QueryParamsError, QueryParamsErrorCode } from '../../../lib/errors/query-params-error.ts'
import { QUERY_PARAMS_ERROR_CODES } from '../../../lib/openapi.ts'
import { PARAMETER_KEYS, topLevelName } from '../../../lib/parse/parameter-keys.ts'

const CODES: ReadonlySet<QueryParamsErrorCode> = new Set<QueryParamsErrorCode>(QUERY_PARAMS_ERROR_CODES)

/**
 * Asserts what every rejection must be, whatever the input: status 400, a documented `code`, a `param`
 * that names a query parameter as sent (or `query` for the whole query), a message naming it, and a
 * JSON body that serialises.
 */
export function expectWellFormedError(error: QueryParamsError): void {
  expect(error.status).to.equal(400)
  expect(CODES.has(error.code), `unknown code '${error.code}'`).to.equal(true)
  expect(error.param).to.be.a('string').and.not.equal('')
  const top = topLevelName(error.param)
  expect(
    top === 'query' ||
      PARAMETER_KEYS.has(top) ||
      error.code === 'unknown_parameter' ||
      error.code === 'invalid_syntax' ||
      error.code === 'limit_exceeded',
    `param '${error.param}'`,
  ).to.equal(true)
  expect(error.message).to.include(error.param)
  const body = JSON.parse(JSON.stringify(error.toJSON())) as { code: string; param: string }
  expect(body).to.include({ code: error.code, param: error.param })
}
