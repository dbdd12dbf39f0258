import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { accepting, freePort } from '../../support/local-ports.ts'

/** Debian's pgpool-II (package pgpool2), when installed. */
export const PGPOOL_BIN = ['/usr/sbin/pgpool'].find((file) => existsSync(file))

/** A pgpool-II this process started under a temporary folder, on a free loopback port. */
export interface RunningPgpool {
  port: number
  /** The URL of `database` through pgpool, user postgres (trust on the servers). */
  urlOf(database: string): string
  /** What pgpool wrote on stderr so far (its last 200 lines). */
  log(): string
  stop(): Promise<void>
}

/**
 * Starts pgpool-II in streaming replication mode in front of a primary and its standby, on free loopback ports
 * (its client port and its PCP port), under a temporary folder removed by `stop()`. Reads are load balanced onto
 * the standby alone (weight 0 on the primary); `pg_sleep` is declared read-only so that a slow read is balanced
 * too. No health checks, no failover, no replication-delay check: only routing.
 */
export async function startPgpool(backends: { primaryPort: number; standbyPort: number }): Promise<RunningPgpool> {
  if (PGPOOL_BIN === undefined) throw new Error('pgpool-II is not installed (Debian: pgpool2)')
  const dir = await mkdtemp(join(tmpdir(), 'kqp-pgpool-'))
  const [port, pcpPort] = [await freePort(), await freePort()]
  const settings: Record<string, string | number> = {
    backend_clustering_mode: 'streaming_replication',
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: dir,
    pcp_listen_addresses: '',
    pcp_port: pcpPort,
    pcp_socket_dir: dir,
    backend_hostname0: '127.0.0.1',
    backend_port0: backends.primaryPort,
    backend_weight0: 0,
    backend_flag0: 'DISALLOW_TO_FAILOVER',
    backend_hostname1: '127.0.0.1',
    backend_port1: backends.standbyPort,
    backend_weight1: 1,
    backend_flag1: 'DISALLOW_TO_FAILOVER',
    load_balance_mode: 'on',
    read_only_function_list: 'pg_sleep',
    sr_check_period: 0,
    sr_check_user: 'postgres',
    health_check_period: 0,
    failover_on_backend_error: 'off',
    num_init_children: 6,
    max_pool: 2,
    enable_pool_hba: 'off',
    pool_passwd: '',
    pid_file_name: join(dir, 'pgpool.pid'),
    logdir: dir,
    log_destination: 'stderr',
  }
  const conf = join(dir, 'pgpool.conf')
  await writeFile(
    conf,
    Object.entries(settings)
      .map(([name, value]) => `${name} = ${typeof value === 'number' ? value : `'${value}'`}\n`)
      .join(''),
  )
  await writeFile(join(dir, 'pcp.conf'), '')
  await writeFile(join(dir, 'pool_hba.conf'), '')
  const lines: string[] = []
  const child: ChildProcess = spawn(
    PGPOOL_BIN,
    ['-n', '-f', conf, '-F', join(dir, 'pcp.conf'), '-a', join(dir, 'pool_hba.conf')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      lines.splice(0, Math.max(0, lines.length - 200))
    })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT')
    await exited
    await rm(dir, { recursive: true, force: true })
  }
  try {
    await accepting(port, 15_000, async () => lines.join('\n'))
  } catch (error) {
    await stop()
    throw error
  }
  return {
    port,
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    log: () => lines.join('\n'),
    stop,
  }
}
