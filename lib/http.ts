/**
 * `knex-query-params/http`: the building blocks of the framework integrations, for servers that wire a
 * request themselves (`node:http`, a framework without an adapter): reading the params of a request and its
 * form body, the client's `Content-Type`, problem+json answers for errors, oversized requests and timeouts,
 * and a signal that aborts when the client disconnects.
 *
 * @example
 * import { errorResponse, queryParamsFromRequest, readFormBody } from 'knex-query-params/http'
 */
export { queryParamsFromRequest } from './http/query-params-from-request.ts'
export type { RequestParseOptions } from './http/query-params-from-request.ts'
export type { HeadersLike, RequestLike } from './http/request.ts'
export { isFormContentType, normalizeContentType } from './http/content-type.ts'
export { errorResponse } from './http/error-response.ts'
export type { ErrorResponse, ErrorResponseOptions, ProblemBody } from './http/error-response.ts'
export { problemResponse, tooLargeResponse, serverProblemResponse } from './http/problems.ts'
export type {
  TooLargeProblemBody,
  TooLargeResponse,
  ServerProblemBody,
  ServerProblemResponse,
} from './http/problems.ts'
export { requestSignal } from './http/request-signal.ts'
export type { RequestSignalOptions, ResponseLike } from './http/request-signal.ts'
export { handleClientError } from './http/handle-client-error.ts'
export type { ClientErrorSocket } from './http/handle-client-error.ts'
export { readFormBody, isFormRequest, readsFormBody, BodyTooLargeError } from './http/form-body.ts'
