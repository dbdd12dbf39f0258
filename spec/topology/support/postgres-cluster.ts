import { execFile, type ExecFileOptions } from 'node:child_process'
import { existsSync } from 'node:fs'
import { appendFile, chmod, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from '../../support/local-ports.ts'

const exec = promisify(execFile)

/** Where Debian's PostgreSQL 15 server binaries are (package postgresql-15). */
export const POSTGRES_BIN = ['/usr/lib/postgresql/15/bin'].find(
  (dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_basebackup')),
)

/** A PostgreSQL server this process started under a temporary folder, on a free loopback port. */
export interface RunningPostgres {
  port: number
  /** The URL of `database` on it, user postgres (trust). */
  urlOf(database: string): string
  stop(): Promise<void>
}

/** A primary and its streaming hot standby. */
export interface PostgresPair {
  primary: RunningPostgres
  standby: RunningPostgres
  stop(): Promise<void>
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
async function asPostgres(command: string, args: string[], options: ExecFileOptions = {}): Promise<void> {
  const root = process.getuid?.() === 0
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]
  await exec(file, argv, options)
}

async function started(bin: string, data: string, port: number, dir: string): Promise<RunningPostgres> {
  await asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, `${port}.log`), '-w', '-t', '30', 'start'])
  return {
    port,
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: () => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined),
  }
}

/**
 * Starts a new primary (`initdb`, trust authentication, loopback only) and a hot standby made from it with
 * `pg_basebackup -R` (streaming replication), each on a free port, under one temporary folder removed by
 * `stop()`. The standby cancels a query that holds up replay after `maxStandbyStreamingDelay`.
 */
export async function startPrimaryAndStandby(options: { maxStandbyStreamingDelay: string }): Promise<PostgresPair> {
  if (POSTGRES_BIN === undefined)
    throw new Error('the PostgreSQL 15 server binaries are not installed (Debian: postgresql-15)')
  const bin = POSTGRES_BIN
  const dir = await mkdtemp(join(tmpdir(), 'kqp-postgres-'))
  await chmod(dir, 0o777)
  const primaryData = join(dir, 'primary')
  const standbyData = join(dir, 'standby')
  const [primaryPort, standbyPort] = [await freePort(), await freePort()]
  await asPostgres(join(bin, 'initdb'), [
    '-D',
    primaryData,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ])
  const common = [
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'fsync = off',
    'shared_buffers = 16MB',
    'max_connections = 30',
  ]
  await appendFile(
    `${primaryData}/postgresql.conf`,
    [...common, `port = ${primaryPort}`, 'wal_level = replica', 'max_wal_senders = 4', ''].join('\n'),
  )
  await appendFile(`${primaryData}/pg_hba.conf`, 'host replication postgres 127.0.0.1/32 trust\n')
  const primary = await started(bin, primaryData, primaryPort, dir)
  try {
    await asPostgres(join(bin, 'pg_basebackup'), [
      '-D',
      standbyData,
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ])
    await appendFile(
      `${standbyData}/postgresql.conf`,
      [
        `port = ${standbyPort}`,
        'hot_standby = on',
        `max_standby_streaming_delay = '${options.maxStandbyStreamingDelay}'`,
        'hot_standby_feedback = off',
        '',
      ].join('\n'),
    )
    const standby = await started(bin, standbyData, standbyPort, dir)
    return {
      primary,
      standby,
      stop: async () => {
        await standby.stop()
        await primary.stop()
        await rm(dir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await primary.stop()
    await rm(dir, { recursive: true, force: true })
    throw error
  }
}
