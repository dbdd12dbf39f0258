import { connect, type Socket } from 'node:net'

/** What a node-postgres `Client` knows of its backend, as far as cancelling goes. */
interface PgBackend {
  processID?: unknown
  secretKey?: unknown
  host?: unknown
  port?: unknown
  connection?: { stream?: { remoteAddress?: unknown; remotePort?: unknown } }
}

const CANCEL_REQUEST_CODE = 80877102
const CANCEL_WAIT_MS = 2000

/**
 * Cancels the statement running on a node-postgres connection with the protocol's CancelRequest: a new socket to the
 * address and port the connection's own socket is connected to (not its host name again: behind a name that resolves
 * to several servers that could reach another one) carrying the 16-byte message (length 16, code 80877102, the
 * backend's process id, its secret key) that the connection received at startup. A connection pooler such as PgBouncer
 * answers the startup with a process id and key of its own and forwards the CancelRequest to the server connection the
 * client is using, which `select pg_cancel_backend(pid)` cannot do: the pid the client saw is not a server's. Resolves
 * when the server has closed the socket (it has then signalled the backend), after at most 2 s; a connection without a
 * key (PGlite, in-process) is left alone.
 */
export async function postgresCancelRequest(connection: unknown): Promise<void> {
  const backend = connection as PgBackend | undefined
  const { processID, secretKey, host, port } = backend ?? {}
  if (typeof processID !== 'number' || typeof secretKey !== 'number') return
  const message = Buffer.alloc(16)
  message.writeInt32BE(16, 0)
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4)
  message.writeInt32BE(processID | 0, 8)
  message.writeInt32BE(secretKey | 0, 12)
  const { remoteAddress, remotePort } = backend?.connection?.stream ?? {}
  const socket =
    typeof remoteAddress === 'string' && typeof remotePort === 'number'
      ? connect(remotePort, remoteAddress)
      : connectByName(host, Number(port ?? 5432))
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve()
    }
    const timer = setTimeout(done, CANCEL_WAIT_MS)
    socket.once('connect', () => socket.write(message))
    socket.once('close', done)
    socket.once('error', done)
    socket.resume()
  })
}

function connectByName(host: unknown, port: number): Socket {
  const name = typeof host === 'string' && host !== '' ? host : 'localhost'
  return name.startsWith('/') ? connect(`${name}/.s.PGSQL.${port}`) : connect(port, name)
}
