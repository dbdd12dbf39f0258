import { isFormContentType } from './is-form-content-type.ts'

/** Methods whose body is never read as query params: `fetch` cannot send one on GET or HEAD, and TRACE forbids it. */
const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'TRACE'])

/**
 * Whether the integrations read a request's body as query params: a form content type (the reference
 * client's comma form included) on any method but GET, HEAD and TRACE. Every integration applies this
 * same rule, so a request means the same thing under every framework.
 *
 * @example
 * readsFormBody('POST', 'application/x-www-form-urlencoded, charset=utf-8') // true
 * readsFormBody('GET', 'application/x-www-form-urlencoded') // false: a GET body is ignored everywhere
 */
export function readsFormBody(method: string | undefined, contentType: string | readonly string[] | null | undefined): boolean {
  return method !== undefined && !BODYLESS_METHODS.has(method.toUpperCase()) && isFormContentType(contentType)
}
