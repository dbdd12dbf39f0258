/**
 * How long a statement keeps running on the server after a `timeout` of 300 ms, per topology: a PostgreSQL hot
 * standby directly and behind a TCP proxy alternating between primary and standby, a MariaDB server directly and
 * behind a proxy alternating between two servers. Starts its own servers under a temporary folder (as
 * spec/topology/ does) and stops them; 5 runs each.
 *
 *   npx tsx scripts/topology-cancel-latency.ts
 */
import knex, { type Knex } from 'knex'
import { applyQueryParams, defineRelationMap, parseQueryParams } from '../lib/index.ts'
import { startMariadb } from '../spec/topology/support/mariadb-server.ts'
import { startPrimaryAndStandby } from '../spec/topology/support/postgres-cluster.ts'
import { startTcpProxy } from '../spec/topology/support/tcp-proxy.ts'

const RUNS = 5

const mapSleeping = (sleep: string) =>
  defineRelationMap({
    items: { columns: { id: 'integer' }, scopes: { slow: (query: Knex.QueryBuilder) => void query.whereRaw(sleep) } },
  })

async function idleMs(running: () => Promise<number>): Promise<number> {
  const start = Date.now()
  while ((await running()) > 0) await new Promise((resolve) => setTimeout(resolve, 5))
  return Date.now() - start
}

async function measure(
  label: string,
  map: ReturnType<typeof mapSleeping>,
  url: () => Promise<{ url: string; close(): Promise<void> }>,
  running: () => Promise<number>,
): Promise<void> {
  const figures: number[] = []
  for (let run = 0; run < RUNS; run += 1) {
    const target = await url()
    const db = knex({
      client: target.url.startsWith('mysql') ? 'mysql2' : 'pg',
      connection: target.url,
      pool: { min: 0, max: 1 },
    })
    await applyQueryParams(db('items'), parseQueryParams('scopes[0]=slow'), map, { timeout: 300 }).catch(
      () => undefined,
    )
    figures.push(await idleMs(running))
    await db.destroy()
    await target.close()
  }
  console.log(`${label}: idle ${figures.join(', ')} ms after the timeout`)
}

const pair = await startPrimaryAndStandby({ maxStandbyStreamingDelay: '100ms' })
const primary = knex({ client: 'pg', connection: pair.primary.urlOf('postgres') })
const standby = knex({ client: 'pg', connection: pair.standby.urlOf('postgres') })
try {
  await primary.raw('create table items (id int primary key)')
  await primary.raw('insert into items values (1)')
  while (
    ((await standby.raw("select to_regclass('items') is not null as ready")) as { rows: Array<{ ready: boolean }> })
      .rows[0]?.ready !== true
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const pgMap = mapSleeping('pg_sleep(5) is not null')
  const onStandby = async (): Promise<number> =>
    (
      (await standby.raw(
        "select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%pg_sleep%' and pid <> pg_backend_pid()",
      )) as { rows: Array<{ n: number }> }
    ).rows[0]?.n ?? 0
  await measure(
    'PostgreSQL standby, direct',
    pgMap,
    async () => ({ url: pair.standby.urlOf('postgres'), close: async () => undefined }),
    onStandby,
  )
  await measure(
    'PostgreSQL standby, behind a proxy alternating with the primary',
    pgMap,
    async () => {
      const proxy = await startTcpProxy((n) => (n % 2 === 0 ? pair.standby.port : pair.primary.port))
      return { url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, close: () => proxy.close() }
    },
    onStandby,
  )
} finally {
  await primary.destroy()
  await standby.destroy()
  await pair.stop()
}

const [a, b] = await Promise.all([startMariadb(), startMariadb()])
const adminA = knex({ client: 'mysql2', connection: a.url })
try {
  for (const server of [a, b]) {
    const admin = knex({ client: 'mysql2', connection: server.url })
    await admin.raw('create database kqp_latency')
    await admin.raw('create table kqp_latency.items (id int primary key)')
    await admin.raw('insert into kqp_latency.items values (1)')
    await admin.destroy()
  }
  const myMap = mapSleeping('sleep(5) = 0')
  const onA = async (): Promise<number> =>
    Number(
      (
        (await adminA.raw(
          "select count(*) as n from information_schema.processlist where command = 'Query' and info like '%sleep(5)%' and id <> connection_id()",
        )) as [Array<{ n: number }>]
      )[0][0]?.n,
    )
  const through = (route: (n: number) => number) => async () => {
    const proxy = await startTcpProxy(route)
    return { url: `mysql://root@127.0.0.1:${proxy.port}/kqp_latency`, close: () => proxy.close() }
  }
  await measure(
    'MariaDB, direct (through a proxy to one server)',
    myMap,
    through(() => a.port),
    onA,
  )
  await measure(
    'MariaDB, behind a proxy alternating between two servers',
    myMap,
    through((n) => (n % 2 === 0 ? a.port : b.port)),
    onA,
  )
} finally {
  await adminA.destroy()
  await Promise.all([a.stop(), b.stop()])
}
