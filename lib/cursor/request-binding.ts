import { createHash } from 'node:crypto'
import type { QueryParams } from '../query-params.ts'

/** The request keys that choose a page, not the rows: a cursor is valid across them. */
const PAGE_KEYS: ReadonlySet<string> = new Set(['cursor', 'limit', 'page', 'offset'])

/**
 * The hash a cursor is bound to: the table, every parsed request key but the page's own (`cursor`, `limit`, `page`,
 * `offset`), so that a key added to `QueryParams` later is bound without a change here, and the guard `context`.
 * Objects are hashed with sorted keys; a `bigint` as its digits, a `Date` as its instant.
 */
export function requestBinding(table: string, params: QueryParams, context: unknown): string {
  const request: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(params))
    if (!PAGE_KEYS.has(key) && value !== undefined) request[key] = value
  const text = canonicalJson(['kqp-cursor', table, request, context ?? null])
  return createHash('sha256').update(text).digest('base64url').slice(0, 22)
}

function canonicalJson(value: unknown, seen: Set<object> = new Set()): string {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'bigint') return JSON.stringify(`${value}n`)
  if (typeof value === 'function' || typeof value === 'symbol') return 'null'
  if (typeof value !== 'object') return JSON.stringify(value)
  if (value instanceof Date) return JSON.stringify(Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString())
  if (seen.has(value))
    throw new Error('knex-query-params: cursorPaginate cannot bind a cursor to a guard context that refers to itself')
  seen.add(value)
  const text = Array.isArray(value)
    ? `[${value.map((item) => canonicalJson(item, seen)).join(',')}]`
    : `{${Object.keys(value)
        .sort()
        .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key], seen)}`)
        .join(',')}}`
  seen.delete(value)
  return text
}
