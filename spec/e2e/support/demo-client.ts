import qs from 'qs'
import type { Knex } from 'knex'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../../../demo/app.ts'

/** The reference client's `qs.stringify` options (@upfrontjs/framework 0.19, see `docs/request-format.md`). */
export const CLIENT_ENCODING: qs.IStringifyOptions = {
  arrayFormat: 'indices',
  strictNullHandling: true,
  indices: true,
  encodeValuesOnly: true,
  charset: 'utf-8',
}

/** The headers the reference client sends with every request. */
export const CLIENT_HEADERS: Readonly<Record<string, string>> = {
  Accept: 'application/json',
  'Content-Type': 'application/x-www-form-urlencoded, charset=utf-8',
}

/** Query params as a client builds them, before encoding (camelCase keys, Dates, booleans, `null`s). */
export type ClientParams = Record<string, unknown>

/** A response as the tests read it. */
export interface DemoResponse<T = unknown> {
  status: number
  contentType: string
  headers: Headers
  body: T
}

const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/**
 * Encodes params exactly as the reference client does: keys snake_cased, then `qs.stringify` with
 * {@link CLIENT_ENCODING} (brackets left as they are, values percent-encoded, `null` as a key without `=`,
 * empty lists left out).
 *
 * @example
 * encodeClientQuery({ relationsExists: ['posts'], limit: 2 }) // 'relations_exists[0]=posts&limit=2'
 */
export function encodeClientQuery(params: ClientParams): string {
  const snake = Object.fromEntries(Object.entries(params).map(([key, value]) => [snakeCase(key), value]))
  return qs.stringify(snake, CLIENT_ENCODING)
}

/** Drives the demo API over HTTP the way the reference client does. */
export class DemoClient {
  readonly baseUrl: string

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl
  }

  /** `GET path?<client-encoded params>` with the client's headers. */
  get<T = unknown>(path: string, params: ClientParams = {}): Promise<DemoResponse<T>> {
    return this.send<T>('GET', path, { params })
  }

  /** Any request; `json` is sent as the 0.19 client sends model attributes (`application/json; charset="utf-8"`). */
  async send<T = unknown>(
    method: string,
    path: string,
    options: { params?: ClientParams; json?: unknown; form?: string; headers?: Record<string, string> } = {},
  ): Promise<DemoResponse<T>> {
    const query = options.params === undefined ? '' : encodeClientQuery(options.params)
    const headers: Record<string, string> = { ...CLIENT_HEADERS, ...options.headers }
    let body: string | undefined
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json; charset="utf-8"'
      body = JSON.stringify(options.json)
    } else if (options.form !== undefined) {
      body = options.form
    }
    const init: RequestInit = { method, headers }
    if (body !== undefined) init.body = body
    const response = await fetch(`${this.baseUrl}${path}${query === '' ? '' : `?${query}`}`, init)
    const text = await response.text()
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      headers: response.headers,
      body: (text === '' ? undefined : JSON.parse(text)) as T,
    }
  }
}

/** A demo server listening on an ephemeral port. */
export interface RunningDemo {
  client: DemoClient
  close(): Promise<void>
}

/**
 * Builds the demo app on `db` (already migrated and seeded) and starts it on an ephemeral port of
 * 127.0.0.1. `close()` stops the server and leaves `db` open.
 *
 * @example
 * const demo = await startDemo(db.knex)
 * const { body } = await demo.client.get('/users', { limit: 2 })
 * await demo.close()
 */
export async function startDemo(db: Knex): Promise<RunningDemo> {
  const app = buildApp({ db })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { client: new DemoClient(`http://127.0.0.1:${port}`), close: () => app.close() }
}
