import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = new URL('../../../', import.meta.url)

/** How a script's process ended, and everything it printed. */
export interface ScriptExit {
  code: number | null
  output: string
}

/** The variables naming databases, which a child must not inherit from the test run. */
const DATABASE_VARIABLES = /^(DATABASE_URL|TEST_POSTGRES_URL|TEST_MYSQL_URL|MYSQL_URL|PG\w+)$/

/**
 * Runs a repository script (`demo/server.ts`, `scripts/fuzz.ts`, …) under tsx as `npm run …` would, with
 * `env` added to an environment cleared of database variables, and waits for it to exit; a process still
 * running after `ms` is killed and reported with the code `null`.
 *
 * @example
 * const { code, output } = await runScript('demo/server.ts', { DATABASE_URL: 'sqlite:/tmp/app.sqlite', PORT: '0' }, 20_000)
 */
export function runScript(script: string, env: Record<string, string>, ms: number): Promise<ScriptExit> {
  const inherited = Object.entries(process.env).filter(([name]) => !DATABASE_VARIABLES.test(name))
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, ROOT))], {
    env: { ...Object.fromEntries(inherited), ...env },
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
