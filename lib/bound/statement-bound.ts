import { QueryTimeoutError } from '../errors/query-timeout-error.ts'
import type { BoundOptions } from './bound-options.ts'

/** The end of a request's statements: a deadline (from a `timeout`) and a signal, shared by every statement it runs. */
export class StatementBound {
  readonly timeout: number | undefined
  readonly signal: AbortSignal | undefined
  /** How many times a statement that failed transiently may run again (see `BoundOptions.retryTransient`). */
  retries = 0
  readonly #deadline: number | undefined

  private constructor(timeout: number | undefined, signal: AbortSignal | undefined, deadline?: number) {
    this.timeout = timeout
    this.signal = signal
    this.#deadline = deadline ?? (timeout === undefined ? undefined : Date.now() + timeout)
  }

  /** `bound` (its deadline and signal), also stopped when `signal` aborts, with that signal's reason. */
  static joined(bound: StatementBound | undefined, signal: AbortSignal): StatementBound {
    if (bound === undefined) return new StatementBound(undefined, signal)
    const either = bound.signal === undefined ? signal : AbortSignal.any([bound.signal, signal])
    const joined = new StatementBound(bound.timeout, either, bound.#deadline)
    joined.retries = bound.retries
    return joined
  }

  /** A bound starting now, or `undefined` when `options` set neither a timeout nor a signal. */
  static of(options: BoundOptions | undefined): StatementBound | undefined {
    const timeout = options?.timeout
    const signal = options?.signal
    if (timeout === undefined && signal === undefined) return undefined
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout > 0)) {
      throw new RangeError(`knex-query-params: timeout must be a positive number of milliseconds, got ${timeout}`)
    }
    const bound = new StatementBound(timeout, signal)
    bound.retries = Math.max(0, Math.floor(options?.retryTransient ?? 0))
    return bound
  }

  /** Milliseconds left, or `undefined` without a timeout. */
  remaining(): number | undefined {
    return this.#deadline === undefined ? undefined : this.#deadline - Date.now()
  }

  /** Why the statements must stop now (the signal's reason, or a `QueryTimeoutError`), or `undefined`. */
  reason(): unknown {
    if (this.signal?.aborted === true) return this.signal.reason
    const left = this.remaining()
    return left !== undefined && left <= 0 ? this.timeoutError() : undefined
  }

  /** Throws the {@link reason} if there is one. */
  throwIfOver(): void {
    const reason = this.reason()
    if (reason !== undefined) throw reason
  }

  timeoutError(): QueryTimeoutError {
    return new QueryTimeoutError(this.timeout ?? 0)
  }

  /**
   * A stop for one wait: `stopped` rejects with the reason when the signal aborts or time is up; `fired` says
   * whether it did. `clear()` removes the timer and the listener.
   */
  stop(): Stop {
    let fire: (reason: unknown) => void = () => undefined
    const stop: Stop = {
      fired: false,
      stopped: new Promise<never>((_resolve, reject) => {
        fire = (reason) => {
          stop.fired = true
          reject(reason)
        }
      }),
      clear: () => undefined,
    }
    stop.stopped.catch(() => undefined)
    const now = this.reason()
    if (now !== undefined) {
      fire(now)
      return stop
    }
    const onAbort = (): void => fire(this.signal?.reason)
    this.signal?.addEventListener('abort', onAbort, { once: true })
    const left = this.remaining()
    const timer = left === undefined ? undefined : setTimeout(() => fire(this.timeoutError()), left)
    stop.clear = () => {
      if (timer !== undefined) clearTimeout(timer)
      this.signal?.removeEventListener('abort', onAbort)
    }
    return stop
  }

  /** `promise`, or the reason to stop if that comes first. */
  async race<T>(promise: Promise<T>): Promise<T> {
    const stop = this.stop()
    try {
      return await Promise.race([promise, stop.stopped])
    } finally {
      stop.clear()
    }
  }
}

/** One wait's stop (see {@link StatementBound.stop}). */
export interface Stop {
  fired: boolean
  readonly stopped: Promise<never>
  clear(): void
}
