import { connect, createServer } from 'node:net'

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
