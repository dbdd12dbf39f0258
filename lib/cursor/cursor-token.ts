import { createHmac, timingSafeEqual } from 'node:crypto'
import { QueryParamsError } from '../errors/query-params-error.ts'
import { MAX_CURSOR_LENGTH } from '../parse/parse-cursor.ts'

/** Which way a cursor reads from its position: the rows after it (`next`) or the rows before it (`prev`). */
export type CursorDirection = 'next' | 'prev'

/** What a cursor carries: the request it belongs to, a direction, the position's values and when it was issued. */
export interface CursorPayload {
  /** The hash of the request and guard context the cursor was issued for (see `requestBinding`). */
  readonly binding: string
  readonly direction: CursorDirection
  /** The ordered values of the row at the position, as the database's text (`null` for NULL). */
  readonly values: readonly (string | null)[]
  /** Seconds since 1970 when the cursor was issued. */
  readonly issuedAt: number
}

const VERSION = 1
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/

const sign = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest()

/**
 * The cursor of `payload`: `<base64url JSON>.<base64url HMAC-SHA256 of it>`, signed with `key`. The values are
 * readable by whoever holds the cursor: signed, not encrypted.
 */
export function encodeCursor(payload: CursorPayload, key: Buffer): string {
  const { binding, direction, values, issuedAt } = payload
  const body = Buffer.from(
    JSON.stringify([VERSION, binding, direction === 'next' ? 'n' : 'p', values, issuedAt]),
  ).toString('base64url')
  return `${body}.${sign(key, body).toString('base64url')}`
}

/**
 * The payload of `cursor` when one of `keys` signed it, checked in constant time; `invalid_cursor` (on `param`)
 * for anything else: garbage, a cut or changed cursor, another secret's, or an unknown version.
 */
export function decodeCursor(cursor: string, keys: readonly Buffer[], param: string): CursorPayload {
  const invalid = (): QueryParamsError =>
    new QueryParamsError(`Parameter '${param}' is not a cursor this server issued.`, { code: 'invalid_cursor', param })
  const dot = cursor.indexOf('.')
  if (cursor.length > MAX_CURSOR_LENGTH || dot < 1) throw invalid()
  const body = cursor.slice(0, dot)
  const signature = cursor.slice(dot + 1)
  if (!SIGNATURE.test(signature)) throw invalid()
  const given = Buffer.from(signature, 'base64url')
  if (!keys.some((key) => timingSafeEqual(sign(key, body), given))) throw invalid()
  return readPayload(body, invalid)
}

/**
 * What `cursor` says, without checking its signature: for a tool that shows a cursor (the `explain` CLI), never
 * to serve a page from. `invalid_cursor` when it is not a cursor's shape.
 */
export function readCursorUnverified(cursor: string, param = 'cursor'): CursorPayload {
  const invalid = (): QueryParamsError =>
    new QueryParamsError(`Parameter '${param}' is not a cursor this server issued.`, { code: 'invalid_cursor', param })
  return readPayload(cursor.split('.', 1)[0] ?? '', invalid)
}

function readPayload(body: string, invalid: () => QueryParamsError): CursorPayload {
  let decoded: unknown
  try {
    decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    throw invalid()
  }
  if (!Array.isArray(decoded) || decoded.length !== 5) throw invalid()
  const [version, binding, direction, values, issuedAt] = decoded as unknown[]
  if (version !== VERSION || typeof binding !== 'string' || (direction !== 'n' && direction !== 'p')) throw invalid()
  if (!Array.isArray(values) || !values.every((value) => value === null || typeof value === 'string')) throw invalid()
  if (typeof issuedAt !== 'number' || !Number.isSafeInteger(issuedAt)) throw invalid()
  return { binding, direction: direction === 'n' ? 'next' : 'prev', values: values as (string | null)[], issuedAt }
}
