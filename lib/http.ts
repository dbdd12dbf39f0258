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
export type { HeadersLike, RequestLike } from './http/request-like.ts'
export { isFormContentType } from './http/is-form-content-type.ts'
export { normalizeContentType } from './http/normalize-content-type.ts'
export { errorResponse } from './http/error-response.ts'
export type { ErrorResponse, ErrorResponseOptions, ProblemBody } from './http/error-response.ts'
export { problemResponse } from './http/problem-response.ts'
export { tooLargeResponse } from './http/too-large-response.ts'
export type { TooLargeProblemBody, TooLargeResponse } from './http/too-large-response.ts'
export { serverProblemResponse } from './http/server-problem-response.ts'
export type { ServerProblemBody, ServerProblemResponse } from './http/server-problem-response.ts'
export { requestSignal } from './http/request-signal.ts'
export type { RequestSignalOptions, ResponseLike } from './http/request-signal.ts'
export { handleClientError } from './http/handle-client-error.ts'
export type { ClientErrorSocket } from './http/handle-client-error.ts'
export { readFormBody } from './http/read-form-body.ts'
export { readsFormBody } from './http/reads-form-body.ts'
export { BodyTooLargeError } from './http/body-too-large-error.ts'
