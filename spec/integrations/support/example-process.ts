import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** One example app running as a child process. */
export interface RunningExample {
  name: string
  url: string
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string
  stop(): Promise<void>
}

/**
 * Starts `examples/<name>.ts` as `npm run example:<name>` does (tsx, with `examples/tsconfig.json` mapping
 * `knex-query-params` to `lib/`), on an ephemeral port and the given database, and resolves once it
 * prints its address.
 */
export async function startExample(name: string, databaseUrl: string, timeout = 60_000): Promise<RunningExample> {
  const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATABASE_URL: databaseUrl, TSX_TSCONFIG_PATH: 'examples/tsconfig.json' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`example ${name} did not start within ${timeout} ms:\n${output}`)),
      timeout,
    )
    const fail = (error: Error): void => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(error)
    }
    child.stdout.on('data', () => {
      const port = /Listening on http:\/\/localhost:(\d+)/.exec(output)?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve(`http://127.0.0.1:${port}`)
    })
    child.once('exit', (code) => fail(new Error(`example ${name} exited with ${code}:\n${output}`)))
  })
  return { name, url, output: () => output, stop: () => stop(child) }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await exited
  clearTimeout(timer)
}
