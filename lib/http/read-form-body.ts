import { BodyTooLargeError } from './body-too-large-error.ts'

/** Default `bodyLimit` of the integrations: 1 MiB, as Fastify's. */
export const DEFAULT_BODY_LIMIT = 1_048_576

/**
 * Reads a request body that no body parser consumed (a Node `IncomingMessage`, a fetch body stream)
 * as UTF-8 text, stopping with a {@link BodyTooLargeError} as soon as it passes `limit` bytes, or at
 * once when `Content-Length` already says so.
 *
 * @example
 * createServer(async (req, res) => {
 *   const body = readsFormBody(req.method, req.headers['content-type']) ? await readFormBody(req) : ''
 *   const params = queryParamsFromRequest(req, { body })
 * })
 */
export async function readFormBody(
  stream: AsyncIterable<Uint8Array | string> & { readonly headers?: Readonly<Record<string, unknown>> },
  limit: number = DEFAULT_BODY_LIMIT,
): Promise<string> {
  const declared = Number(stream.headers?.['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit)
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk
    length += bytes.byteLength
    if (length > limit) throw new BodyTooLargeError(limit)
    chunks.push(bytes)
  }
  const all = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    all.set(chunk, offset)
    offset += chunk.byteLength
  }
  return new TextDecoder().decode(all)
}
