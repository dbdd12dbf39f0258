import type { JsonSchema } from './json-schema.ts'
import { QUERY_PARAMS_ERROR_CODES } from './error-codes.ts'

const PROBLEM_FIELDS = {
  type: { type: 'string' },
  title: { type: 'string' },
  detail: { type: 'string' },
  message: { type: 'string' },
} as const

/** The schemas of every error answer, by their name in `components.schemas`. */
export const PROBLEM_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  QueryProblem: {
    type: 'object',
    description:
      'RFC 9457 problem for a rejected query (errorResponse): `param` is the bracket path sent, ' +
      '`allowed` the valid choices where they help.',
    properties: {
      ...PROBLEM_FIELDS,
      status: { const: 400 },
      code: { type: 'string', enum: [...QUERY_PARAMS_ERROR_CODES] },
      param: { type: 'string', maxLength: 300 },
      allowed: { type: 'array', items: { type: 'string' }, maxItems: 50 },
    },
    required: ['type', 'title', 'status', 'detail', 'message', 'code', 'param'],
  },
  TooLargeProblem: {
    type: 'object',
    description:
      "A body over the server's limit (413), or a URL and headers over Node's header limit (431): " +
      'send a long query as a form body.',
    properties: {
      ...PROBLEM_FIELDS,
      status: { enum: [413, 431] },
      code: { type: 'string', enum: ['body_too_large', 'headers_too_large'] },
    },
    required: ['status', 'code'],
  },
  UnavailableProblem: {
    type: 'object',
    description:
      'The query took too long and was cancelled, or the database cannot be reached: retry later (`Retry-After`).',
    properties: {
      ...PROBLEM_FIELDS,
      status: { const: 503 },
      code: { type: 'string', enum: ['query_timeout', 'database_unavailable'] },
    },
    required: ['code'],
  },
}

function problem(description: string, name: string, json = false): JsonSchema {
  const schema = { $ref: `#/components/schemas/${name}` }
  const content: Record<string, JsonSchema> = { 'application/problem+json': { schema } }
  if (json) content['application/json'] = { schema }
  return { description, content }
}

/** The error responses of every operation, by status. */
export const PROBLEM_RESPONSES: Readonly<Record<string, JsonSchema>> = {
  '400': problem('The query cannot be served: `code` says why, `param` where.', 'QueryProblem'),
  '413': problem("The body is over the server's limit.", 'TooLargeProblem'),
  '431': problem("The URL and headers are over the server's limit: send the query as a form body.", 'TooLargeProblem'),
  '503': problem('The query timed out, or the database is unavailable: retry later.', 'UnavailableProblem', true),
}
