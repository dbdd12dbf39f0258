import { boundedSessionOf } from './session-setting.ts'

/** A mysql2 (or mysql) connection as far as its session settings go. */
interface MysqlSession {
  threadId?: unknown
  query(sql: string, callback: (error: unknown, rows: unknown) => void): unknown
}

/** The ratio MariaDB's documentation recommends: a short-cutting plan is taken when it promises to be 100× cheaper. */
const RATIO = 100

function run(session: MysqlSession, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) =>
    session.query(sql, (error, rows) =>
      error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(rows),
    ),
  )
}

const preference = boundedSessionOf<MysqlSession>({
  async needed(session) {
    try {
      const rows = (await run(session, 'select @@session.optimizer_join_limit_pref_ratio as ratio')) as Array<{
        ratio: unknown
      }>
      return Number(rows[0]?.ratio) === 0
    } catch {
      // MySQL and MariaDB before 10.6.20, 10.11.10 and 11.4.4 have no such variable.
      return false
    }
  },
  change: (session) => run(session, `set session optimizer_join_limit_pref_ratio = ${RATIO}`),
  restore: (session) => run(session, 'set session optimizer_join_limit_pref_ratio = 0'),
})

/**
 * Sets `optimizer_join_limit_pref_ratio = 100` for the bounded statement about to run on a MariaDB connection whose
 * session leaves it at 0, and returns what sets it back (`undefined` when nothing was changed). By default MariaDB
 * picks a join order without counting on `order by … limit` to stop early: a page of posts ordered by `created_at`
 * and filtered by their author's `score > 51.2` read every matching author's posts and sorted them (1.3 s, 300k rows)
 * instead of walking `posts(created_at)` and looking up each author (16 ms; figure 16's random requests). With the
 * ratio the optimizer also costs the plan that stops at the limit, and takes it when it promises to be 100 times
 * cheaper, from its own estimates: a narrow filter (`score > 99.5`) keeps the author-first plan. Learned once per
 * connection (one round trip); then one more per bounded statement (`set session …`; setting it back is queued on the
 * connection, not awaited), none where the server or the user's role sets it already, as docs/dialects.md advises.
 */
export async function mysqlJoinLimitPreference(connection: unknown): Promise<(() => Promise<void>) | undefined> {
  const session = connection as MysqlSession | undefined
  if (session === undefined || typeof session.threadId !== 'number' || typeof session.query !== 'function')
    return undefined
  return preference(session)
}
