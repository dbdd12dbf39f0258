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

/** A free loopback port (closed again before it is returned). */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (typeof address !== 'object' || address === null) throw new Error('no free port')
  return address.port
}

/** Resolves once `port` accepts a connection; throws after `within` ms with `describe()`'s text. */
export async function accepting(port: number, within: number, describe: () => Promise<string>): Promise<void> {
  const start = Date.now()
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (ok) return
    if (Date.now() - start > within)
      throw new Error(`nothing listened on ${port} within ${within} ms:\n${await describe()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
