import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { accepting, freePort } from './tcp-proxy.ts'

const run = promisify(execFile)

/** Debian's MariaDB server binaries (package mariadb-server), when installed. */
export const MARIADB_BINARIES = ((): { server: string; install: string } | undefined => {
  const server = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'].find((path) => existsSync(path))
  const install = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'].find((path) => existsSync(path))
  return server === undefined || install === undefined ? undefined : { server, install }
})()

/** A MariaDB server this process started under a temporary folder, on a free loopback port. */
export interface RunningMariadb {
  port: number
  /** A URL of the server (no database) for user root without a password. */
  url: string
  stop(): Promise<void>
}

/** Starts a new, empty MariaDB server (a few seconds: install the system tables, then start). */
export async function startMariadb(): Promise<RunningMariadb> {
  if (MARIADB_BINARIES === undefined)
    throw new Error('the MariaDB server is not installed (Debian: apt-get install -y mariadb-server)')
  const dir = await mkdtemp(join(tmpdir(), 'kqp-mariadb-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : []
  await run(MARIADB_BINARIES.install, [
    '--no-defaults',
    `--datadir=${data}`,
    ...asRoot,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ])
  const port = await freePort()
  const log = join(dir, 'server.log')
  const child: ChildProcess = spawn(
    MARIADB_BINARIES.server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      ...asRoot,
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      `--socket=${join(dir, 'mysqld.sock')}`,
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      `--log-error=${log}`,
      '--skip-log-bin',
      '--innodb-buffer-pool-size=16M',
      '--performance-schema=off',
    ],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await accepting(port, 20_000, () => readFile(log, 'utf8').catch(() => ''))
  return {
    port,
    url: `mysql://root@127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
      await rm(dir, { recursive: true, force: true })
    },
  }
}
