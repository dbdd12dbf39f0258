import type { HeadersLike, RequestLike } from './request-like.ts'

/** One request header (name in lower case), from whichever object of the request carries headers. */
export function headerOf(request: RequestLike, name: string): string | undefined {
  for (const headers of [request.headers, request.raw?.headers, request.req?.headers, request.request?.headers]) {
    const value = read(headers, name)
    if (value !== undefined) return value
  }
  return undefined
}

function read(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined
  if (typeof headers.get === 'function') return headers.get(name) ?? undefined
  const value = (headers as Readonly<Record<string, unknown>>)[name]
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined
}
