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
