import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise'
import { applyQueryParams, defineRelationMap, parseQueryParams, QueryTimeoutError } from '../../lib/index.ts'
import { MARIADB_BINARIES, startMariadb, type RunningMariadb } from './support/mariadb-server.ts'
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.ts'

const required = (process.env['REQUIRE_DATABASES'] ?? '').split(',').some((name) => name.trim() === 'mysql')
const reason = 'the MariaDB server binaries (mariadbd, mariadb-install-db) are not installed'

const map = defineRelationMap({
  items: {
    columns: { id: 'integer' },
    scopes: {
      slow: (query: Knex.QueryBuilder) => void query.whereRaw('sleep(5) = 0'),
      brief: (query: Knex.QueryBuilder) => void query.whereRaw('sleep(1.5) = 0'),
    },
  },
})

const threadOf = async (connection: Connection): Promise<number> => {
  const [rows] = await connection.query<RowDataPacket[]>('select connection_id() as id')
  return Number(rows[0]?.['id'])
}

/** Opens and closes connections on the server whose next thread id is lower until both will give the same id. */
async function alignThreadIds(a: RunningMariadb, b: RunningMariadb): Promise<void> {
  const probe = async (server: RunningMariadb): Promise<number> => {
    const connection = await createConnection(`${server.url}/kqp_topology`)
    try {
      return await threadOf(connection)
    } finally {
      await connection.end()
    }
  }
  let [onA, onB] = [await probe(a), await probe(b)]
  while (onA !== onB) {
    if (onA < onB) onA = await probe(a)
    else onB = await probe(b)
  }
}

/** Statements of `server` running a sleep, other than the asking one. */
async function sleeping(server: RunningMariadb): Promise<number> {
  const connection = await createConnection(server.url)
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      "select count(*) as n from information_schema.processlist where command = 'Query' and info like '%sleep(%' and id <> connection_id()",
    )
    return Number(rows[0]?.['n'])
  } finally {
    await connection.end()
  }
}

if (MARIADB_BINARIES === undefined && !required) {
  describe(`MariaDB KILL QUERY behind a balancer (skipped: ${reason})`, () => {
    it(`skipped: ${reason}`, function () {
      this.skip()
    })
  })
} else {
  describe('MariaDB KILL QUERY behind a TCP balancer alternating between two servers whose thread ids coincide', function () {
    this.timeout(60_000)
    let a: RunningMariadb
    let b: RunningMariadb
    const servers: RunningMariadb[] = []
    let proxy: TcpProxy | undefined
    let db: Knex | undefined

    before(async () => {
      if (MARIADB_BINARIES === undefined)
        throw new Error(`REQUIRE_DATABASES names mysql, and ${reason} (.ci/run installs them)`)
      // One after the other, so that a server started before a failure is stopped by after().
      for (let n = 0; n < 2; n += 1) servers.push(await startMariadb())
      ;[a, b] = servers as [RunningMariadb, RunningMariadb]
      for (const server of servers) {
        const connection = await createConnection(server.url)
        await connection.query('create database kqp_topology')
        await connection.query('create table kqp_topology.items (id int primary key)')
        await connection.query('insert into kqp_topology.items values (1)')
        await connection.end()
      }
    })

    after(async () => {
      await Promise.all(servers.map((server) => server.stop()))
    })

    afterEach(async () => {
      await db?.destroy()
      await proxy?.close()
      db = undefined
      proxy = undefined
    })

    /** A pool of one connection through a proxy routing its `n`-th connection by `route`; the statement's thread id. */
    async function throughProxy(route: (n: number) => number): Promise<{ db: Knex; thread: number }> {
      proxy = await startTcpProxy(route)
      db = knex({
        client: 'mysql2',
        connection: `mysql://root@127.0.0.1:${proxy.port}/kqp_topology`,
        pool: { min: 0, max: 1 },
      })
      await alignThreadIds(a, b)
      const connection = (await db.client.acquireConnection()) as { threadId: number }
      await db.client.releaseConnection(connection)
      return { db, thread: connection.threadId }
    }

    /** A session of someone else on server B, with the given thread id, sleeping `seconds`; resolves with what sleep() returned. */
    async function victimOnB(thread: number, seconds: number): Promise<{ result: Promise<number> }> {
      const connection = await createConnection(`${b.url}/kqp_topology`)
      expect(await threadOf(connection), "the other server's session has the statement's thread id").to.equal(thread)
      const result = connection
        .query<RowDataPacket[]>(`select sleep(${seconds}) as s`)
        .then(([rows]) => Number(rows[0]?.['s']))
      await new Promise((resolve) => setTimeout(resolve, 100))
      return { result: result.finally(() => connection.end()) }
    }

    it("the kill reaches the statement's server on a later connection; the other server's session with the same thread id survives", async () => {
      const { db: pooled, thread } = await throughProxy((n) => (n % 2 === 0 ? a.port : b.port))
      const victim = await victimOnB(thread, 2)
      const started = Date.now()
      const error = await applyQueryParams(pooled('items'), parseQueryParams('scopes[0]=slow'), map, {
        timeout: 300,
      }).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(Date.now() - started).to.be.below(1000)
      let idle = Date.now()
      while ((await sleeping(a)) > 0) {
        if (Date.now() - idle > 500) throw new Error('the statement on server A still sleeps 0.5 s after the timeout')
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      idle = Date.now() - idle
      expect(idle).to.be.below(500)
      expect(
        await victim.result,
        "the other server's session was not interrupted (sleep() returns 1 when killed)",
      ).to.equal(0)
      expect(proxy?.routed.slice(0, 3)).to.deep.equal([a.port, b.port, a.port])
      expect((error as QueryTimeoutError).notCancelled).to.equal(undefined)
    })

    it("when no new connection reaches the statement's server, nothing is killed and the error says what bounds the statement", async () => {
      const { db: pooled, thread } = await throughProxy((n) => (n === 0 ? a.port : b.port))
      const victim = await victimOnB(thread, 2)
      const error = (await applyQueryParams(pooled('items'), parseQueryParams('scopes[0]=brief'), map, {
        timeout: 300,
      }).then(
        () => undefined,
        (failure: unknown) => failure,
      )) as QueryTimeoutError
      expect(error).to.be.instanceOf(QueryTimeoutError)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(error.notCancelled?.message).to.match(
        /KILL QUERY not sent, none of 3 new connections reached the statement's server .*max_statement_time on MariaDB/,
      )
      expect(await sleeping(a), 'the statement on A was left to run').to.equal(1)
      expect(await victim.result).to.equal(0)
      expect(proxy?.routed.slice(0, 4)).to.deep.equal([a.port, b.port, b.port, b.port])
      while ((await sleeping(a)) > 0) await new Promise((resolve) => setTimeout(resolve, 50))
    })
  })
}
