import { boundList, boundMessage, boundText } from './cut-text.ts'

/** Stable machine-readable reasons a request was rejected. */
export type QueryParamsErrorCode =
  | 'invalid_syntax'
  | 'unknown_parameter'
  | 'unknown_column'
  | 'unknown_relation'
  | 'unknown_scope'
  | 'invalid_operator'
  | 'invalid_value'
  | 'invalid_boolean'
  | 'invalid_direction'
  | 'invalid_number'
  | 'invalid_order'
  | 'invalid_distinct'
  | 'limit_exceeded'
  | 'not_sortable'
  | 'not_filterable'
  | 'operator_not_allowed'
  | 'search_not_allowed'
  | 'invalid_cursor'
  | 'cursor_mismatch'
  | 'too_expensive'

/** Details of a {@link QueryParamsError}. */
export interface QueryParamsErrorDetails {
  code: QueryParamsErrorCode
  /** The bracket path as the client sent it, e.g. `wheres[2][operator]`. */
  param: string
  /** Valid choices, where listing them helps the client (at most 50 are kept). */
  allowed?: readonly string[]
}

/**
 * A client sent query parameters that cannot be served. Always status 400; `code` is stable,
 * `param` is the bracket path the client sent, and `allowed` lists valid choices where that helps.
 * Every error stays small whatever the client sent: a client text echoed in `message` or `param` is cut
 * to 100 characters, marked with `…(N characters)` giving its original length; `message` is at most
 * 400 characters (plus that marker) and `allowed` at most 50 entries of at most 100 characters.
 *
 * @example
 * try { applyQueryParams(db('users'), params, map) } catch (error) {
 *   if (error instanceof QueryParamsError) reply.code(error.status).send(error.toJSON())
 * }
 */
export class QueryParamsError extends Error {
  readonly status = 400 as const
  readonly code: QueryParamsErrorCode
  readonly param: string
  readonly allowed?: string[]

  constructor(message: string, details: QueryParamsErrorDetails) {
    super(boundMessage(message, details.param))
    this.name = 'QueryParamsError'
    this.code = details.code
    this.param = boundText(details.param)
    if (details.allowed !== undefined) this.allowed = boundList(details.allowed)
  }

  /** A JSON body for the HTTP response: `{ message, code, param, allowed? }`. */
  toJSON(): { message: string; code: QueryParamsErrorCode; param: string; allowed?: string[] } {
    return this.allowed === undefined
      ? { message: this.message, code: this.code, param: this.param }
      : { message: this.message, code: this.code, param: this.param, allowed: this.allowed }
  }
}
