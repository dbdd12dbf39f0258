import type { FastifyInstance } from 'fastify'

/** Why the server could not listen, in words, or `undefined` for an error to report as it is. */
function listenProblem(error: unknown, port: number, host: string): string | undefined {
  const code = (error as { code?: unknown }).code
  if (code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use. Set PORT to a free port, e.g. PORT=${port + 1} npm run demo.`
  if (code === 'EACCES')
    return `Port ${port} on ${host} needs privileges this process does not have. Set PORT to a port above 1023, e.g. PORT=3000.`
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `Cannot listen on host '${host}'. Set HOST to an address of this machine, e.g. HOST=localhost.`
  return undefined
}

/**
 * Starts `app` on `port` and `host`; when that fails for a reason the user can fix (the port is taken,
 * privileged, or the host is not local), writes what to set to `stderr`, without a stack, and returns
 * `false` (the caller exits 1). Other errors are thrown.
 *
 * @example
 * if (!(await listenOrExplain(app, 3000, 'localhost'))) process.exit(1)
 */
export async function listenOrExplain(
  app: FastifyInstance,
  port: number,
  host: string,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
  try {
    await app.listen({ port, host })
    return true
  } catch (error) {
    const problem = listenProblem(error, port, host)
    if (problem === undefined) throw error
    stderr.write(`${problem}\n`)
    return false
  }
}
