import { execSync } from 'node:child_process'
import os from 'node:os'
import { createRequire } from 'node:module'

/** What the numbers were measured on. */
export interface Machine {
  cpus: number
  cpuModel: string
  memoryGiB: number
  node: string
  platform: string
  /** 1-, 5- and 15-minute load averages when the bench started: other work on the machine skews timings. */
  loadAverage: [number, number, number]
  packages: Record<string, string>
}

const require = createRequire(import.meta.url)

function version(name: string): string {
  try {
    return (require(`${name}/package.json`) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

function nproc(): number {
  try {
    return Number(execSync('nproc', { encoding: 'utf8' }).trim())
  } catch {
    return os.availableParallelism()
  }
}

/** The machine, the Node.js version and the versions of the packages measured. */
export function machine(): Machine {
  const [one = 0, five = 0, fifteen = 0] = os.loadavg()
  return {
    cpus: nproc(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: [one, five, fifteen],
    packages: Object.fromEntries(
      ['knex', 'objection', 'qs', 'pg', 'better-sqlite3', 'fastify', 'autocannon', 'tsx'].map((name) => [
        name,
        version(name),
      ]),
    ),
  }
}
