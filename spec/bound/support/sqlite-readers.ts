import { existsSync, readdirSync, readFileSync } from 'node:fs'
import type { Knex } from 'knex'

/** The pids of this process's SQLite reader processes (of the database `file` when given; Linux: read from `/proc`). */
export function readerPids(file?: string): Set<number> {
  const found = new Set<number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z') continue
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
      if (command.includes('SQLite reader') && (file === undefined || command.includes(JSON.stringify(file))))
        found.add(Number(entry))
    } catch {
      // ended meanwhile
    }
  }
  return found
}

/** CPU time (user + system, in clock ticks) a process has used so far, or `undefined` once it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (fields[0] === 'Z') return undefined
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/**
 * Waits until the readers of `file` use no CPU for 300 ms (a reader still starting would look busy), up to `within`
 * ms; returns their pids.
 */
export async function settledReaders(file: string, within: number): Promise<Set<number>> {
  const start = Date.now()
  for (;;) {
    const pids = readerPids(file)
    const before = [...pids].map((pid) => cpuTicks(pid))
    await new Promise((resolve) => setTimeout(resolve, 300))
    const after = [...pids].map((pid) => cpuTicks(pid))
    if (pids.size > 0 && before.every((ticks, index) => ticks === after[index])) return pids
    if (Date.now() - start > within) throw new Error(`the readers of ${file} did not settle within ${within} ms`)
  }
}

/** The reader that is using CPU now (of `pids`), waiting up to `within` ms for one to show it. */
export async function busyReader(pids: Iterable<number>, within: number): Promise<number> {
  const start = Date.now()
  const before = new Map([...pids].map((pid) => [pid, cpuTicks(pid) ?? 0]))
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const [pid, ticks] of before) if ((cpuTicks(pid) ?? 0) > ticks + 1) return pid
    if (Date.now() - start > within) throw new Error(`no reader used CPU within ${within} ms`)
  }
}

/** Milliseconds until process `pid` is gone (polled every 5 ms); throws after `within` ms. */
export async function goneWithin(pid: number, within: number): Promise<number> {
  const start = Date.now()
  for (;;) {
    if (!existsSync(`/proc/${pid}`) || cpuTicks(pid) === undefined) return Date.now() - start
    if (Date.now() - start > within) throw new Error(`process ${pid} still there after ${within} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

/**
 * Records the SQL prepared on `db`'s pool connection (SQLite, a pool of one) while `run` runs: a statement run in a
 * reader process is never prepared there.
 */
export async function preparedOnCaller<T>(db: Knex, run: () => Promise<T>): Promise<{ result: T; prepared: string[] }> {
  const connection = (await db.client.acquireConnection()) as { prepare(sql: string): unknown }
  await db.client.releaseConnection(connection)
  const prepared: string[] = []
  const original = connection.prepare
  connection.prepare = function (this: unknown, sql: string) {
    prepared.push(sql)
    return original.call(this, sql)
  }
  try {
    return { result: await run(), prepared }
  } finally {
    connection.prepare = original
  }
}
