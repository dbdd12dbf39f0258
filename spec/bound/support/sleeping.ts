import type { Knex } from 'knex'
import { relationMap } from '../../../fixtures/relation-map.ts'
import type { RelationMap } from '../../../lib/index.ts'
import type { TestDatabase } from '../../support/databases.ts'

/** A where that sleeps on the server for `seconds` per row it is evaluated on, per server database. */
export function sleepSql(db: TestDatabase, seconds: number): string {
  return db.name === 'mysql' ? `sleep(${seconds}) = 0` : `pg_sleep(${seconds}) is not null`
}

/**
 * The fixture map with a `slow` scope on users (a where that sleeps on the server) and, when `slowPosts`,
 * a guard on posts that sleeps, so that an eager-load batch of posts is slow.
 */
export function sleepingMap(db: TestDatabase, options: { slowPosts?: boolean } = {}): RelationMap {
  const sleep = sleepSql(db, 5)
  const users = relationMap.users
  const posts = relationMap.posts
  return {
    ...relationMap,
    users: { ...users, scopes: { ...users.scopes, slow: (query: Knex.QueryBuilder) => void query.whereRaw(sleep) } },
    posts:
      options.slowPosts === true
        ? { ...posts, guard: (query: Knex.QueryBuilder) => void query.whereRaw(sleep) }
        : posts,
  }
}

/** How many statements of `db`'s test database are running a sleep right now (other than this check). */
export async function sleepingStatements(db: TestDatabase, admin: Knex = db.knex): Promise<number> {
  const name = db.server?.name ?? ''
  if (db.name === 'mysql') {
    const [rows] = (await admin.raw(
      "select count(*) as n from information_schema.processlist where db = ? and command = 'Query' and info like '%sleep(%' and id <> connection_id()",
      [name],
    )) as [Array<{ n: number | string }>]
    return Number(rows[0]?.n ?? 0)
  }
  const result = (await admin.raw(
    "select count(*) as n from pg_stat_activity where datname = ? and state = 'active' and query like '%pg_sleep%' and pid <> pg_backend_pid()",
    [name],
  )) as { rows: Array<{ n: number | string }> }
  return Number(result.rows[0]?.n ?? 0)
}

/**
 * Milliseconds until no statement of `db` sleeps any more, polling every 25 ms; throws after `within` ms.
 */
export async function idleWithin(db: TestDatabase, within: number, admin?: Knex): Promise<number> {
  const start = Date.now()
  for (;;) {
    if ((await sleepingStatements(db, admin)) === 0) return Date.now() - start
    if (Date.now() - start > within) throw new Error(`statements of ${db.label} still sleeping after ${within} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Milliseconds until some statement of `db` sleeps, polling every 10 ms; throws after `within` ms. */
export async function sleepingWithin(db: TestDatabase, within: number, admin?: Knex): Promise<number> {
  const start = Date.now()
  for (;;) {
    if ((await sleepingStatements(db, admin)) > 0) return Date.now() - start
    if (Date.now() - start > within) throw new Error(`no statement of ${db.label} started sleeping within ${within} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
