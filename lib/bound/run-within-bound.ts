import type { Knex } from 'knex'
import type { StoppableRead } from '../dialect/dialect.ts'
import { dialectOf } from '../dialect/dialect-of.ts'
import { QueryTimeoutError } from '../errors/query-timeout-error.ts'
import { transientFailureOf } from '../dialect/transient-failure.ts'
import { runAsKnex } from '../knex/builder-methods.ts'
import { acquireConnection, discardConnection, inTransaction, releaseConnection } from '../knex/client.ts'
import type { StatementBound } from './statement-bound.ts'

/** A statement the caller owns (a fresh builder or raw): it is given a connection of its own before it runs. */
export type Statement = Knex.QueryBuilder | Knex.Raw

/**
 * Runs one statement within `bound`. Its connection is taken from the pool (or the transaction) here, so
 * that when the signal aborts or time is up while it runs, the statement can be cancelled on the server
 * (the dialect's `cancelStatement`); the promise then rejects at once with the reason, and the connection
 * goes back to the pool when the cancelled statement has ended. The wait for a connection is bounded too.
 * On SQLite the dialect's `stoppableRead` routes a read by its plan: a cheap one runs on the calling thread, another
 * on a file in a reader process that is ended when the bound stops it; what runs on the calling thread (cheap, or
 * where no reader can take it: a transaction, a database in memory) has the bound checked before and after it.
 * `statement` must be one the caller made for this run: it is bound to the connection.
 */
export async function runBounded(statement: Statement, bound: StatementBound | undefined): Promise<unknown> {
  if (bound === undefined) return runAsKnex(statement)
  const { client } = statement as { client: Knex.Client }
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await runBoundedOnce(statement, bound)
    } catch (error) {
      if (!shouldRetry(error, attempt, bound, client)) throw error
      await bound.race(new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS * (attempt + 1))))
    }
  }
}

/** Whether `error` says the connection's session is gone (killed, shut down, or the socket lost). */
function sessionLost(error: unknown): boolean {
  const reason = transientFailureOf(error)?.reason
  return reason === 'connection' || reason === 'shutdown'
}

/** The pause before a transient failure's next attempt, times the attempt. */
const RETRY_PAUSE_MS = 25

function shouldRetry(error: unknown, attempt: number, bound: StatementBound, client: Knex.Client): boolean {
  if (attempt >= bound.retries || inTransaction(client) || bound.reason() !== undefined) return false
  const left = bound.remaining()
  return (left === undefined || left > RETRY_PAUSE_MS * (attempt + 1)) && transientFailureOf(error) !== undefined
}

async function runBoundedOnce(statement: Statement, bound: StatementBound): Promise<unknown> {
  bound.throwIfOver()
  const { client } = statement as { client: Knex.Client }
  const { cancelStatement: cancel, prepareCancel, boundedSession, stoppableRead } = dialectOf(client)
  if (cancel === undefined) {
    const setting = stoppableRead?.(client, () => sqlOf(statement))
    let read: StoppableRead | undefined
    try {
      read = setting === undefined ? undefined : await bound.race(setting)
    } catch (error) {
      setting?.then((late) => late?.release()).catch(() => undefined)
      throw error
    }
    if (read !== undefined) return runStoppable(statement, read, bound)
    const result = await runAsKnex(statement)
    bound.throwIfOver()
    return result
  }
  const acquiring = acquireConnection(client)
  let connection: unknown
  try {
    connection = await bound.race(acquiring)
  } catch (error) {
    acquiring.then(
      (late) => releaseConnection(client, late),
      () => undefined,
    )
    throw error
  }
  if (prepareCancel !== undefined) {
    const preparing = prepareCancel(client, connection)
    try {
      await bound.race(preparing)
    } catch (error) {
      const release = (): Promise<void> => releaseConnection(client, connection)
      preparing.then(release, release).catch(() => undefined)
      throw error
    }
  }
  let restore: (() => Promise<void>) | undefined
  if (boundedSession !== undefined) {
    const changing = boundedSession(connection)
    try {
      restore = await bound.race(changing)
    } catch (error) {
      const release = async (): Promise<void> => {
        const late = await changing.catch(() => undefined)
        await late?.()
        if (sessionLost(error)) await discardConnection(client, connection, error)
        else await releaseConnection(client, connection)
      }
      release().catch(() => undefined)
      throw error
    }
  }
  const release = async (failure?: unknown): Promise<void> => {
    await restore?.()
    if (failure !== undefined && sessionLost(failure)) await discardConnection(client, connection, failure)
    else await releaseConnection(client, connection)
  }
  const stop = bound.stop()
  const running = runAsKnex(statement.connection(connection))
  let result: unknown
  try {
    result = await Promise.race([running, stop.stopped])
  } catch (error) {
    if (stop.fired) void cancelThenRelease(running, cancel, error, client, connection, release)
    else await release(error)
    throw error
  } finally {
    stop.clear()
  }
  await release()
  return result
}

/**
 * Runs `statement` as `read` sets up (outside the calling thread, or on it when cheap); when the bound stops it, `read`
 * is stopped at once. A statement that ran on the calling thread past the bound rejects as over it.
 */
async function runStoppable(statement: Statement, read: StoppableRead, bound: StatementBound): Promise<unknown> {
  const stop = bound.stop()
  const running = runAsKnex(statement.connection(read.connection))
  try {
    const result = await Promise.race([running, stop.stopped])
    bound.throwIfOver()
    return result
  } catch (error) {
    if (read.refusal !== undefined) throw read.refusal
    if (stop.fired) {
      running.catch(() => undefined)
      read.stop()
    }
    throw error
  } finally {
    stop.clear()
    await read.release()
  }
}

/** The SQL and bindings `statement` runs, as the driver is given them. */
function sqlOf(statement: Statement): { sql: string; bindings: readonly unknown[] } {
  const { sql, bindings } = statement.toSQL().toNative()
  return { sql, bindings }
}

/** How long a cancelled statement may keep running before the cancel is sent again. */
const CANCEL_RETRY_MS = 50
/** Cancels sent for one statement at most (then it is left to end on its own). */
const CANCEL_ATTEMPTS = 100

async function cancelThenRelease(
  running: Promise<unknown>,
  cancel: (client: Knex.Client, connection: unknown) => Promise<void>,
  reason: unknown,
  client: Knex.Client,
  connection: unknown,
  release: () => Promise<void>,
): Promise<void> {
  let ended = false
  const settled = running.then(
    () => (ended = true),
    () => (ended = true),
  )
  // A cancel that reaches the server before the statement does (it was still on its way) is ignored there,
  // so it is sent again while the statement runs. The connection is released only after the last cancel has
  // been handled, so no cancel can reach the next statement on it.
  for (let attempt = 0; attempt < CANCEL_ATTEMPTS && !ended; attempt += 1) {
    try {
      await cancel(client, connection)
    } catch (failure) {
      // The statement then runs to its end, holding the connection until it does.
      if (reason instanceof QueryTimeoutError && failure instanceof Error) reason.notCancelled ??= failure
      break
    }
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, CANCEL_RETRY_MS))])
  }
  await settled
  await release()
}
