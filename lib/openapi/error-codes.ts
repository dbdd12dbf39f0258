import type { QueryParamsErrorCode } from '../errors/query-params-error.ts'

/** Every `code` of a `QueryParamsError`, for the 400 response's enum. */
export const QUERY_PARAMS_ERROR_CODES = [
  'invalid_syntax',
  'unknown_parameter',
  'unknown_column',
  'unknown_relation',
  'unknown_scope',
  'invalid_operator',
  'invalid_value',
  'invalid_boolean',
  'invalid_direction',
  'invalid_number',
  'invalid_order',
  'invalid_distinct',
  'limit_exceeded',
  'not_sortable',
  'not_filterable',
  'operator_not_allowed',
  'search_not_allowed',
  'invalid_cursor',
  'cursor_mismatch',
  'too_expensive',
] as const satisfies readonly QueryParamsErrorCode[]

// A code added to QueryParamsErrorCode and not here fails to compile.
type Missing = Exclude<QueryParamsErrorCode, (typeof QUERY_PARAMS_ERROR_CODES)[number]>
export const EVERY_CODE_LISTED: [Missing] extends [never] ? true : Missing = true
