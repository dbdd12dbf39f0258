import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { accepting, freePort } from '../../support/local-ports.ts'

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

/**
 * Installs the system tables into `data`. Each server has a temporary folder of its own (`--tmpdir`): with the shared
 * `/tmp`, a bootstrap once lost its temporary table ("Unknown table 'mysql.tmp_user_sys'"); a failed install is tried
 * once more on an empty folder.
 */
async function installSystemTables(data: string, temporary: string, asRoot: string[]): Promise<void> {
  if (MARIADB_BINARIES === undefined) return
  const args = [
    '--no-defaults',
    `--datadir=${data}`,
    `--tmpdir=${temporary}`,
    ...asRoot,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]
  try {
    await run(MARIADB_BINARIES.install, args)
  } catch {
    await rm(data, { recursive: true, force: true })
    await run(MARIADB_BINARIES.install, args)
  }
}

/**
 * Starts a new, empty MariaDB server (a few seconds: install the system tables, then start). When it cannot start,
 * nothing of it is left behind: no process, no folder.
 */
export async function startMariadb(): Promise<RunningMariadb> {
  if (MARIADB_BINARIES === undefined)
    throw new Error('the MariaDB server is not installed (Debian: apt-get install -y mariadb-server)')
  const dir = await mkdtemp(join(tmpdir(), 'kqp-mariadb-'))
  const data = join(dir, 'data')
  const temporary = join(dir, 'tmp')
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : []
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  const stop = async (): Promise<void> => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await mkdir(temporary)
    await installSystemTables(data, temporary, asRoot)
    const port = await freePort()
    const log = join(dir, 'server.log')
    const server: ChildProcess = spawn(
      MARIADB_BINARIES.server,
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--tmpdir=${temporary}`,
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
    child = server
    exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
    await accepting(port, 20_000, () => readFile(log, 'utf8').catch(() => ''))
    return { port, url: `mysql://root@127.0.0.1:${port}`, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
