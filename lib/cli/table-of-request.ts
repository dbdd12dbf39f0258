import { UsageError } from './usage-error.ts'

/**
 * The base table of a request: `table` when given, else the last segment of the URL's path
 * (`users` for `/api/users?limit=2` or `https://example.com/users?…`).
 *
 * @throws {UsageError} when there is neither.
 * @example
 * tableOfRequest('/users?limit=2') // 'users'
 */
export function tableOfRequest(request: string, table?: string): string {
  if (table !== undefined) return table
  const path = /^[a-z][a-z\d+.-]*:\/\//i.test(request) ? new URL(request).pathname : request.startsWith('/') ? request.split(/[?#]/)[0] ?? '' : ''
  const segment = decodeURIComponent(path.split('/').filter((part) => part !== '').at(-1) ?? '')
  if (segment === '') throw new UsageError(`No table in '${request}': give a path such as '/users?…', or --table <name>.`)
  return segment
}
