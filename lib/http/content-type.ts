/**
 * Whether a `Content-Type` header names `application/x-www-form-urlencoded`, whatever its parameters and
 * their separator: the reference client sends `application/x-www-form-urlencoded, charset=utf-8` (a comma,
 * not a semicolon), which strict media-type parsers reject.
 *
 * @example
 * isFormContentType('application/x-www-form-urlencoded, charset=utf-8') // true
 * isFormContentType('application/json; charset="utf-8"') // false
 */
export function isFormContentType(header: string | readonly string[] | undefined | null): boolean {
  const value = Array.isArray(header) ? header[0] : header
  if (typeof value !== 'string') return false
  return mediaTypeOf(value) === 'application/x-www-form-urlencoded'
}

/** The `type/subtype` of a header value, lower-cased, without parameters (`;` or `,` separated). */
function mediaTypeOf(header: string): string {
  const end = header.search(/[;,]/)
  return (end === -1 ? header : header.slice(0, end)).trim().toLowerCase()
}

const COMMA_PARAMETERS = /^(\s*[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+)\s*,\s*(?=[\w!#$%&'*+.^`|~-]+=)/

/**
 * Rewrites a `Content-Type` whose parameters follow a comma into the standard `;` form, so strict
 * parsers (Fastify, `type-is`) accept what the reference client sends; any other value is returned
 * unchanged. Use it in a hook that runs before body parsing.
 *
 * @example
 * normalizeContentType('application/x-www-form-urlencoded, charset=utf-8')
 * // 'application/x-www-form-urlencoded; charset=utf-8'
 * fastify.addHook('onRequest', async (request) => {
 *   const type = request.headers['content-type']
 *   if (type !== undefined) request.headers['content-type'] = normalizeContentType(type)
 * })
 */
export function normalizeContentType(header: string): string {
  return header.replace(COMMA_PARAMETERS, '$1; ')
}
