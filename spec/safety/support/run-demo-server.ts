import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const SERVER = fileURLToPath(new URL('../../../demo/server.ts', import.meta.url))

/** How a demo server process ended. */
export interface DemoExit {
  code: number | null
  output: string
}

/**
 * Starts `demo/server.ts` (what `npm run demo` runs) as a child process with `DATABASE_URL=url` on an
 * ephemeral port and waits for it to exit; a server still running after `ms` is killed and reported
 * with the code `null`.
 *
 * @example
 * const { code, output } = await runDemoServer('sqlite:/tmp/app.sqlite', 20_000)
 */
export function runDemoServer(url: string, ms: number): Promise<DemoExit> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}
