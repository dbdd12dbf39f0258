import { createConnection, createServer, type Server, type Socket } from 'node:net'

/**
 * A loopback TCP proxy to a database server, standing in for the server in fault tests: `stop()` drops
 * every connection and refuses new ones — the server is gone, as during a restart — and `start()` serves
 * again on the same port. The real server is never touched.
 *
 * @example
 * const proxy = new TcpProxy('127.0.0.1', 5432)
 * const port = await proxy.start()
 */
export class TcpProxy {
  private server: Server | undefined
  private readonly sockets = new Set<Socket>()
  private port = 0

  private readonly targetHost: string
  private readonly targetPort: number

  constructor(targetHost: string, targetPort: number) {
    this.targetHost = targetHost
    this.targetPort = targetPort
  }

  /** Listens (on the previous port after a `stop()`, else on a free one) and returns the port. */
  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort })
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream)
      upstream.pipe(client)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(this.port, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP address')
    this.port = address.port
    this.server = server
    return this.port
  }

  /** Destroys every proxied connection and stops listening. */
  async stop(): Promise<void> {
    const server = this.server
    this.server = undefined
    for (const socket of this.sockets) socket.destroy()
    this.sockets.clear()
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
