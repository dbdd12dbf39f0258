import { boundedSessionOf } from './session-setting.ts'

/** A node-postgres `Client` as far as its session settings go. */
interface PgSession {
  processID?: unknown
  query(text: string): Promise<{ rows: Array<Record<string, unknown>> }>
}

const jitOff = boundedSessionOf<PgSession>({
  async needed(session) {
    const { rows } = await session.query("select current_setting('jit') = 'on' and pg_jit_available() as on")
    return rows[0]?.['on'] === true
  },
  change: (session) => session.query('set jit = off'),
  restore: (session) => session.query('set jit = on'),
})

/**
 * Turns JIT off for the bounded statement about to run on a node-postgres connection whose session has it on, and
 * returns what turns it back on (`undefined` when nothing was changed: JIT off or unavailable, or PGlite, which
 * has no backend process). A backend does not answer a cancel while it JIT-compiles a plan: with JIT forced on,
 * ten relation filters three deep stayed active for seconds after a timeout or a disconnect (issue 35); JIT made
 * none of the library's statements faster on figure 16's data. Learns the session's setting once per connection
 * (one round trip); on a JIT session each bounded statement waits for one more (`set jit = off`; `set jit = on` is
 * queued on the connection after it, not awaited), none on a session where JIT is off, as docs/public-endpoint.md
 * advises. `set` is the session's, not `set local`: the
 * library opens no transaction the caller did not ask for; in an aborted transaction the rollback reverts it.
 */
export async function postgresJitOff(connection: unknown): Promise<(() => Promise<void>) | undefined> {
  const session = connection as PgSession | undefined
  if (session === undefined || typeof session.processID !== 'number' || typeof session.query !== 'function')
    return undefined
  return jitOff(session)
}
