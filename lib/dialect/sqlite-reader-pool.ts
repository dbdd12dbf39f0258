import { type ChildProcess, spawn } from 'node:child_process'
import { SQLITE_READER_SOURCE } from './sqlite-reader-source.ts'

/** What a reader process opens: the caller's database file, with the settings of its connection that it copies. */
export interface SqliteReaderSettings {
  /** The better-sqlite3 module the caller's knex loaded (its file). */
  readonly driverPath: string
  /** The database file, absolute. */
  readonly file: string
  /** The connection's `defaultSafeIntegers`. */
  readonly safeIntegers: boolean
  /** The connection's `busy_timeout`, in milliseconds. */
  readonly busyTimeout: number
  /** better-sqlite3's `nativeBinding` option, as knex's connection settings give it. */
  readonly nativeBinding?: string | undefined
}

/** One statement for a reader: what knex's better-sqlite3 client would give `statement.all()`. */
export interface ReaderStatement {
  readonly sql: string
  readonly bindings: readonly unknown[]
  readonly safeIntegers: boolean | undefined
}

/** A reader's answer: the rows, an error thrown there, or that the statement must run on the caller's connection. */
export type ReaderAnswer =
  | { readonly rows: unknown[] }
  | { readonly caller: true }
  | { readonly error: { readonly name: string; readonly message: string; readonly code?: unknown } }

/** The one read a {@link SqliteReaderPool.run} is doing, so that it can be stopped from outside. */
export interface ReaderTurn {
  stopped: boolean
  /** Set by the pool: what stopping the read does now (drop it from the queue, or end its reader's process). */
  onStop: (() => void) | undefined
}

/** Reader processes per database file at most; reads beyond wait in turn (within their bound). */
export const MAX_READERS = 4
/** An idle reader process ends after this long. */
const IDLE_MS = 60_000

type IpcMessage = { id?: number; ready?: true; failed?: string } & Partial<Record<'rows' | 'caller' | 'error', unknown>>

interface Channel {
  ref(): void
  unref(): void
}

const living = new Set<ChildProcess>()
let endsWithProcess = false

/** One reader process: one statement at a time. */
class SqliteReader {
  readonly child: ChildProcess
  exited = false
  /** Ended for being idle: not replaced. */
  retired = false
  /** Whether it opened the file. */
  ready = false
  #killed = false
  #next = 0
  #pending: { id: number; resolve(answer: ReaderAnswer): void; reject(error: unknown): void } | undefined
  #idle: ReturnType<typeof setTimeout> | undefined
  readonly pool: SqliteReaderPool

  constructor(settings: SqliteReaderSettings, pool: SqliteReaderPool) {
    this.pool = pool
    this.child = spawn(process.execPath, ['-e', SQLITE_READER_SOURCE, settings.driverPath, JSON.stringify(settings)], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    })
    living.add(this.child)
    this.child.unref()
    this.#channel()?.unref()
    this.child.on('message', (message: IpcMessage) => this.#answer(message))
    const ended = (why: string): void => {
      if (this.exited) return
      this.exited = true
      living.delete(this.child)
      if (this.#idle !== undefined) clearTimeout(this.#idle)
      if (!this.ready && !this.#killed) {
        // It could not start (no process, the driver not loadable there): the file's reads stay on the caller's
        // connection, rather than starting readers again and again.
        pool.failure ??= `the SQLite reader process did not start (${why})`
        this.#settle({ caller: true })
      }
      this.#pending?.reject(new Error(`knex-query-params: the SQLite reader process ended (${why})`))
      this.#pending = undefined
      pool.ended(this)
    }
    this.child.on('exit', (code, signal) => ended(signal ?? `exit code ${code}`))
    this.child.on('error', (error) => ended(error.message))
  }

  /** Runs `statement` here. */
  ask(statement: ReaderStatement): Promise<ReaderAnswer> {
    if (this.exited) return Promise.reject(new Error('knex-query-params: the SQLite reader process ended'))
    this.#rest()
    const id = this.#next++
    // While the answer is awaited the channel keeps the process alive, as a statement on the main thread would.
    this.#channel()?.ref()
    return new Promise((resolve, reject) => {
      this.#pending = { id, resolve, reject }
      this.child.send({ id, ...statement }, (error) => {
        if (error !== null && this.#pending?.id === id) {
          this.#pending = undefined
          reject(error)
        }
      })
    })
  }

  /** Waits unused: ends after {@link IDLE_MS}. */
  idle(): void {
    this.#rest()
    this.#idle = setTimeout(() => this.pool.retire(this), IDLE_MS)
    this.#idle.unref()
  }

  kill(): void {
    this.#killed = true
    if (!this.exited) this.child.kill('SIGKILL')
  }

  #rest(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle)
    this.#idle = undefined
  }

  #channel(): Channel | undefined {
    return (this.child as unknown as { channel?: Channel | null }).channel ?? undefined
  }

  #answer(message: IpcMessage): void {
    if (message.failed !== undefined) {
      this.pool.failure ??= message.failed
      this.#settle({ caller: true })
      return
    }
    if (message.ready === true) this.ready = true
    if (message.id === undefined || message.id !== this.#pending?.id) return
    this.#settle(message as ReaderAnswer)
  }

  #settle(answer: ReaderAnswer): void {
    const pending = this.#pending
    this.#pending = undefined
    this.#channel()?.unref()
    pending?.resolve(answer)
  }
}

/**
 * The reader processes of one database file (and connection settings): up to {@link MAX_READERS}, started when
 * first needed and kept warm while used. A read that is stopped ends its reader's process at once (`SIGKILL`: the
 * statement ends with it, and the operating system frees its locks), and a fresh reader replaces it.
 */
export class SqliteReaderPool {
  /** Why no reader could open the file (then every statement runs on the caller's connection). */
  failure: string | undefined
  readonly #idle: SqliteReader[] = []
  readonly #waiting: Array<(reader: SqliteReader) => void> = []
  #count = 0
  readonly settings: SqliteReaderSettings

  constructor(settings: SqliteReaderSettings) {
    this.settings = settings
  }

  /** Runs `statement` in a reader; `turn.stopped` set and `turn.onStop()` called end it at once. */
  async run(statement: ReaderStatement, turn: ReaderTurn): Promise<ReaderAnswer> {
    const reader = await this.#take(turn)
    turn.onStop = () => reader.kill()
    try {
      return await reader.ask(statement)
    } finally {
      turn.onStop = undefined
      if (!reader.exited) this.#give(reader)
    }
  }

  /** Starts a reader in the background when none is started yet (the first bounded read of the file). */
  warm(): void {
    if (this.#count === 0 && this.failure === undefined) this.#idle.push(this.#start())
  }

  /** A reader ended (stopped, idle, or gone on its own): it is replaced when none is left idle. */
  ended(reader: SqliteReader): void {
    const at = this.#idle.indexOf(reader)
    if (at !== -1) this.#idle.splice(at, 1)
    this.#count -= 1
    if (this.failure === undefined && this.#waiting.length > 0) this.#give(this.#start())
    else if (this.failure === undefined && this.#idle.length === 0 && !reader.retired) this.#idle.push(this.#start())
  }

  /** Ends an idle reader that was not used for a while, without a replacement. */
  retire(reader: SqliteReader): void {
    reader.retired = true
    const at = this.#idle.indexOf(reader)
    if (at !== -1) this.#idle.splice(at, 1)
    reader.kill()
  }

  #start(): SqliteReader {
    if (!endsWithProcess) {
      endsWithProcess = true
      process.once('exit', () => {
        for (const child of living) child.kill('SIGKILL')
      })
    }
    this.#count += 1
    const reader = new SqliteReader(this.settings, this)
    reader.idle()
    return reader
  }

  #take(turn: ReaderTurn): Promise<SqliteReader> {
    const reader = this.#idle.pop() ?? (this.#count < MAX_READERS ? this.#start() : undefined)
    if (reader !== undefined) {
      // One spare is kept starting or idle, so that the next read (a concurrent one, or the one after a reader was
      // ended) does not wait for a process to start (a Node process: 0.4–1.4 s on a busy 2-core machine).
      if (this.#idle.length === 0 && this.#count < MAX_READERS) this.#idle.push(this.#start())
      return Promise.resolve(reader)
    }
    return new Promise((resolve, reject) => {
      const waiter = (reader: SqliteReader): void => resolve(reader)
      this.#waiting.push(waiter)
      turn.onStop = () => {
        const at = this.#waiting.indexOf(waiter)
        if (at !== -1) this.#waiting.splice(at, 1)
        reject(new Error('knex-query-params: stopped while waiting for a SQLite reader'))
      }
    })
  }

  #give(reader: SqliteReader): void {
    const waiter = this.#waiting.shift()
    if (waiter !== undefined) waiter(reader)
    else {
      reader.idle()
      this.#idle.push(reader)
    }
  }
}

const pools = new Map<string, SqliteReaderPool>()

/** The pool of readers for `settings` (one per file and settings in the process). */
export function sqliteReaderPool(settings: SqliteReaderSettings): SqliteReaderPool {
  const key = JSON.stringify([
    settings.file,
    settings.driverPath,
    settings.safeIntegers,
    settings.busyTimeout,
    settings.nativeBinding,
  ])
  let pool = pools.get(key)
  if (pool === undefined) {
    pool = new SqliteReaderPool(settings)
    pools.set(key, pool)
  }
  return pool
}
