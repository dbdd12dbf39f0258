import { QueryTimeoutError } from '../errors/query-timeout-error.ts'

/** A Node `ServerResponse` as far as noticing a disconnect goes. */
export interface ResponseLike {
  readonly writableFinished: boolean
  readonly destroyed?: boolean
  once(event: 'close', listener: () => void): unknown
}

/** Options of {@link requestSignal}. */
export interface RequestSignalOptions {
  /** Milliseconds from `since` after which the signal aborts with a `QueryTimeoutError` (503); none by default. */
  timeout?: number | undefined
  /** When the request arrived (`Date.now()`); default now. */
  since?: number
}

/**
 * An `AbortSignal` for a request's statements: it aborts with an `AbortError` when the connection closes
 * before the response was sent (the client disconnected), and with a `QueryTimeoutError` once `timeout`
 * milliseconds have passed. Pass it as `signal` to `applyQueryParams`, `loadRelations` or `paginate`: the
 * statements still running are then cancelled on the server. The integrations make one per request
 * (`request.querySignal`, `req.querySignal`, `ctx.state.querySignal`); use this on plain `node:http`.
 *
 * @example
 * http.createServer(async (req, res) => {
 *   const signal = requestSignal(res, { timeout: 5000 })
 *   const page = await paginate(applyQueryParams(db('posts'), params, relationMap, { signal }), params)
 * })
 */
export function requestSignal(response: ResponseLike, options: RequestSignalOptions = {}): AbortSignal {
  const controller = new AbortController()
  const { timeout } = options
  let timer: ReturnType<typeof setTimeout> | undefined
  if (timeout !== undefined) {
    const left = timeout - (Date.now() - (options.since ?? Date.now()))
    timer = setTimeout(() => controller.abort(new QueryTimeoutError(timeout)), Math.max(0, left))
    timer.unref?.()
  }
  const closed = (): void => {
    if (timer !== undefined) clearTimeout(timer)
    if (!response.writableFinished)
      controller.abort(new DOMException('The client disconnected before the response was sent.', 'AbortError'))
  }
  if (response.destroyed === true) closed()
  else response.once('close', closed)
  return controller.signal
}
