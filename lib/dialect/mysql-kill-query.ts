import type { Knex } from 'knex'
import { acquireRawConnection, destroyRawConnection } from '../knex/client.ts'

/** A mysql2 connection as far as killing goes. */
interface MysqlConnection {
  threadId?: unknown
  query(sql: string, values: unknown[], callback: (error: unknown, rows: unknown) => void): unknown
}

/** Which server a connection reached and who it is there. */
interface Session {
  /** `@@server_uid` (MariaDB) or `@@server_uuid` (MySQL), with `@@hostname`, `@@port` and `@@server_id`. */
  server: string
  thread: number
  user: string
  /** The connection's client address as the server sees it (processlist `host`, with its port). */
  host: string
}

const sessions = new WeakMap<object, Session | string>()

/**
 * The process's reads of the processlist and its kills, one at a time: on MariaDB 10.11 a `KILL QUERY` sent while
 * another connection reads `information_schema.processlist` was measured to be lost now and then (the statement
 * slept on through 20 kills), so this process never overlaps the two.
 */
let serial: Promise<unknown> = Promise.resolve()

function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const result = serial.then(task, task)
  serial = result.catch(() => undefined)
  return result
}

/** New connections the killer opens, at most, to reach the statement's server behind a balancer. */
const KILLER_ATTEMPTS = 3

const SERVER = (uid: string): string => `concat_ws('/', ${uid}, @@hostname, @@port, @@server_id) as server`

const SESSION_SQL = (uid: string): string =>
  `select ${SERVER(uid)}, connection_id() as thread, p.user as user, p.host as host ` +
  'from information_schema.processlist p where p.id = connection_id()'

/** The killer's server and, in the same round trip, the target thread's user, client address and statement. */
const TARGET_SQL = (uid: string): string =>
  `select ${SERVER(uid)}, p.user as user, p.host as host, p.info as info ` +
  'from (select 1 as one) one left join information_schema.processlist p on p.id = ?'

type Row = Record<string, unknown>

function run(connection: MysqlConnection, sql: string, values: unknown[] = []): Promise<Row[]> {
  return new Promise((resolve, reject) =>
    connection.query(sql, values, (error, rows) => (error ? reject(error) : resolve(rows as Row[]))),
  )
}

/** MariaDB names its server identity `server_uid`, MySQL `server_uuid`. */
async function withServerId(
  connection: MysqlConnection,
  sql: (uid: string) => string,
  values: unknown[] = [],
): Promise<Row> {
  let rows: Row[]
  try {
    rows = await run(connection, sql('@@server_uid'), values)
  } catch {
    rows = await run(connection, sql('@@server_uuid'), values)
  }
  return rows[0] ?? {}
}

async function sessionOf(connection: MysqlConnection): Promise<Session> {
  const row = await withServerId(connection, SESSION_SQL)
  const [server, thread] = [String(row['server']), Number(row['thread'])]
  return { server, thread, user: String(row['user']), host: String(row['host']) }
}

/**
 * Learns, once per connection and before a statement runs on it, which server the connection reached (its
 * `@@server_uid`/`@@server_uuid`, host name, port and server id) and its thread's user and client address there,
 * so that {@link mysqlKillQuery} can prove it kills that statement. A connection whose `connection_id()` is not
 * the thread id of its handshake (a multiplexing proxy) is remembered as one that cannot be killed safely.
 */
export async function mysqlLearnSession(_client: Knex.Client, connection: unknown): Promise<void> {
  const own = connection as MysqlConnection
  if (typeof own !== 'object' || own === null || sessions.has(own)) return
  const session = await oneAtATime(() => sessionOf(own))
  const multiplexed = `its thread id ${String(own.threadId)} is not the server's ${session.thread} (a multiplexer)`
  sessions.set(own, session.thread === own.threadId ? session : multiplexed)
}

/** Why a statement was not killed on the server: what still bounds it is the server's own limits. */
export class KillNotProvenError extends Error {
  constructor(why: string) {
    super(
      `knex-query-params: KILL QUERY not sent, ${why}; the statement runs on until it ends or the server's own ` +
        'limit stops it (max_statement_time on MariaDB, max_execution_time on MySQL)',
    )
    this.name = 'KillNotProvenError'
  }
}

/**
 * Stops the statement running on a mysql2 connection with `KILL QUERY <thread id>`, sent on a new connection
 * (outside the pool, which may be full) that is closed afterwards, only once it is proven that this connection
 * reached the statement's server (the same server identity as {@link mysqlLearnSession} read) and that the thread
 * is the statement's (the same user and client address, which is one TCP connection, and running a statement).
 * Behind a load balancer
 * the new connection can reach another server, where the same thread id is someone else's session: it tries up
 * to 3 new connections, and when none proves it, kills nothing and rejects with {@link KillNotProvenError}.
 * The connection itself stays open and usable; the statement fails with `ER_QUERY_INTERRUPTED`. A statement that
 * already ended makes the kill a no-op.
 */
export async function mysqlKillQuery(client: Knex.Client, connection: unknown): Promise<void> {
  const own = connection as MysqlConnection | undefined
  const threadId = own?.threadId
  if (own === undefined || typeof threadId !== 'number') return
  const session = sessions.get(own)
  if (session === undefined) throw new KillNotProvenError("the connection's server was not learnt before the statement")
  if (typeof session === 'string') throw new KillNotProvenError(session)
  for (let attempt = 0; attempt < KILLER_ATTEMPTS; attempt += 1) {
    const killer = (await acquireRawConnection(client)) as MysqlConnection
    const proven = await oneAtATime(() => proveAndKill(killer, threadId, session)).finally(() =>
      destroyRawConnection(client, killer),
    )
    if (proven) return
  }
  const tried = `none of ${KILLER_ATTEMPTS} new connections reached the statement's server (${session.server})`
  throw new KillNotProvenError(tried)
}

/** `false` when `killer` reached another server; kills the thread when it is the statement's. */
async function proveAndKill(killer: MysqlConnection, threadId: number, session: Session): Promise<boolean> {
  const thread = await withServerId(killer, TARGET_SQL, [threadId])
  if (String(thread['server']) !== session.server) return false
  if (thread['info'] === null || thread['info'] === undefined) return true
  if (thread['user'] !== session.user || thread['host'] !== session.host) {
    const other = `${String(thread['user'])}@${String(thread['host'])}`
    throw new KillNotProvenError(`thread ${threadId} on the server is another session (${other})`)
  }
  await run(killer, 'KILL QUERY ?', [threadId]).catch(() => undefined)
  return true
}
