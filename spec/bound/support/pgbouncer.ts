import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accepting, freePort } from '../../support/local-ports.ts'

/** Where Debian's `pgbouncer` package installs the binary (`.ci/run` installs it). */
export const PGBOUNCER_BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path))

/** A PgBouncer this process started, in transaction mode, on a loopback port. */
export interface RunningPgBouncer {
  port: number
  /** The URL of `database` through the bouncer. */
  urlOf(database: string): string
  stop(): Promise<void>
}

/**
 * Starts PgBouncer in transaction mode in front of the PostgreSQL server of `serverUrl` (trust
 * authentication, as the test server has), on a free loopback port, with its files in a temporary
 * directory. As root it runs as `postgres` (or `nobody`): PgBouncer refuses to run as root.
 */
export async function startPgBouncer(serverUrl: string): Promise<RunningPgBouncer> {
  if (PGBOUNCER_BINARY === undefined)
    throw new Error('pgbouncer is not installed (Debian: apt-get install -y pgbouncer)')
  const server = new URL(serverUrl)
  const user = decodeURIComponent(server.username || 'postgres')
  const port = await freePort()
  const dir = await mkdtemp(join(tmpdir(), 'kqp-pgbouncer-'))
  await chmod(dir, 0o777)
  const log = join(dir, 'pgbouncer.log')
  const ini = join(dir, 'pgbouncer.ini')
  await writeFile(join(dir, 'userlist.txt'), `"${user}" ""\n`)
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || '5432'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 4',
      'max_client_conn = 50',
      'ignore_startup_parameters = extra_float_digits,options,search_path',
      `logfile = ${log}`,
      '',
    ].join('\n'),
  )
  await chmod(ini, 0o644)
  const asRoot = process.getuid?.() === 0
  const runAs = asRoot ? ['-u', existsSync('/var/lib/postgresql') ? 'postgres' : 'nobody'] : []
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [...runAs, ini], { stdio: 'ignore' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await accepting(port, 5000, () => readFile(log, 'utf8').catch(() => ''))
  return {
    port,
    urlOf: (database) => `postgres://${encodeURIComponent(user)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}
