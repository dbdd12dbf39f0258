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

/** Details of a {@link QueryParamsError}. */
export interface QueryParamsErrorDetails {
  code: QueryParamsErrorCode
  /** The bracket path as the client sent it, e.g. `wheres[2][operator]`. */
  param: string
  /** Valid choices, where listing them helps the client. */
  allowed?: readonly string[]
}

/**
 * A client sent query parameters that cannot be served. Always status 400; `code` is stable,
 * `param` is the bracket path the client sent, and `allowed` lists valid choices where that helps.
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
    super(message)
    this.name = 'QueryParamsError'
    this.code = details.code
    this.param = details.param
    if (details.allowed !== undefined) this.allowed = [...details.allowed]
  }

  /** A JSON body for the HTTP response: `{ message, code, param, allowed? }`. */
  toJSON(): { message: string; code: QueryParamsErrorCode; param: string; allowed?: string[] } {
    return this.allowed === undefined
      ? { message: this.message, code: this.code, param: this.param }
      : { message: this.message, code: this.code, param: this.param, allowed: this.allowed }
  }
}
