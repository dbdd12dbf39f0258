import { connect, createServer, type Server, type Socket } from 'node:net'

/** A TCP proxy of the test's own, on a free loopback port, choosing a target port for each new connection. */
export interface TcpProxy {
  port: number
  /** The target port each accepted connection went to, in order. */
  readonly routed: number[]
  close(): Promise<void>
}

/**
 * Starts a proxy that sends its `n`-th connection (0-based) to `route(n)` on 127.0.0.1, piping bytes both ways
 * unchanged, as a TCP load balancer does: what reaches the client cannot tell the servers apart.
 */
export async function startTcpProxy(route: (n: number) => number): Promise<TcpProxy> {
  const routed: number[] = []
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const target = route(routed.length)
    routed.push(target)
    const upstream = connect(target, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => undefined)
    }
    client.pipe(upstream)
    upstream.pipe(client)
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (typeof address !== 'object' || address === null) throw new Error('proxy without a port')
  return {
    port: address.port,
    routed,
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
