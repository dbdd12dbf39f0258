/** An RFC 9457 problem body for a request refused for its size. */
export interface TooLargeProblemBody {
  type: string
  title: 'Content Too Large' | 'Request Header Fields Too Large'
  status: 413 | 431
  detail: string
  message: string
  code: 'body_too_large' | 'headers_too_large'
}

/** What to send for a request refused for its size. */
export interface TooLargeResponse {
  status: 413 | 431
  headers: { 'content-type': 'application/problem+json' }
  body: TooLargeProblemBody
}

const DETAILS = {
  413: ['Content Too Large', 'body_too_large', 'The request body is too large. Send fewer or shorter parameters.'],
  431: [
    'Request Header Fields Too Large',
    'headers_too_large',
    'The URL or the headers are too long. Send a long query as an application/x-www-form-urlencoded body on a method that allows one.',
  ],
} as const

/**
 * The problem+json answer for a body over the limit (413) or a URL/headers over Node's header limit (431).
 *
 * @example
 * const { status, headers, body } = tooLargeResponse(431)
 * // body.code === 'headers_too_large'
 */
export function tooLargeResponse(status: 413 | 431): TooLargeResponse {
  const [title, code, detail] = DETAILS[status]
  return { status, headers: { 'content-type': 'application/problem+json' }, body: { type: 'about:blank', title, status, detail, message: detail, code } }
}
