import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../fixtures/migrate.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { seed } from '../../fixtures/seed.ts'
import {
  applyQueryParams,
  configureSqliteReads,
  defineRelationMap,
  paginate,
  parseQueryParams,
  QueryTimeoutError,
  type RelationMap,
} from '../../lib/index.ts'
import { busyReader, goneWithin, preparedOnCaller, readerPids, settledReaders } from './support/sqlite-readers.ts'
import { rejection } from './support/rejection.ts'

/** A where that runs for many seconds on SQLite (a recursive count to a billion), whatever the machine. */
const SLOW_SQLITE =
  '(with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000000000) select count(*) from n) > 0'

/**
 * Generous bounds a busy 2-core machine cannot break: the rejection comes within 2.5 s of the timeout (the statement
 * itself runs for well over 10 s), and the reader process that ran it is gone within 2.5 s of the rejection. On an
 * idle machine both take a few milliseconds (`bench/worst/sqlite-reader-design.ts`).
 */
const REJECTED_WITHIN = 2500
const GONE_WITHIN = 2500

const map: RelationMap = {
  ...relationMap,
  users: {
    ...relationMap.users,
    scopes: { ...relationMap.users.scopes, slow: (query: Knex.QueryBuilder) => void query.whereRaw(SLOW_SQLITE) },
  },
}

/** Every column kind the driver returns: integers past 2^53, reals, text, blobs, nulls. */
const kindsMap = defineRelationMap({
  kinds: {
    columns: { id: 'integer', big: 'bigint', real: 'number', text: 'string', blob: 'string', empty: 'string' },
  },
})

const everyTable = Object.keys(relationMap)
const withs: Record<string, string> = {
  users: 'with[0]=team&with[1]=posts&with[2]=postsViewsSum&with[3]=avatar',
  posts: 'with[0]=author&with[1]=tags&with[2]=comments&with[3]=images',
}

for (const journal of ['wal', 'delete'] as const) {
  describe(`SQLite's bound on a database file (journal_mode ${journal})`, function () {
    this.timeout(60_000)
    let directory = ''
    let file = ''
    let db: Knex

    before(async () => {
      directory = mkdtempSync(join(tmpdir(), 'kqp-sqlite-reader-'))
      file = join(directory, 'reader.sqlite')
      db = knex({
        client: 'better-sqlite3',
        connection: { filename: file },
        useNullAsDefault: true,
      })
      // Every bounded read in a reader (no in-thread routing), as these tests check what a reader returns.
      configureSqliteReads(db, { inThreadRows: 0 })
      await db.raw(`pragma journal_mode = ${journal}`)
      await migrate(db)
      await seed(db)
      await db.raw('create table kinds (id integer primary key, big integer, real real, text text, blob blob, empty)')
      await db.raw(
        "insert into kinds values (1, 9007199254740993, 1.5, 'é ☃', x'00ff10', null), (2, -3, 0.1, '', x'', null)",
      )
      // The first bounded read starts the readers.
      await applyQueryParams(db('users'), parseQueryParams('limit=1'), map, { timeout: 30_000 })
    })

    after(async () => {
      await db.destroy()
      rmSync(directory, { recursive: true, force: true })
    })

    it('a timeout rejects with QueryTimeoutError at once, and the reader process running the statement is gone', async () => {
      const readers = await settledReaders(file, 20_000)
      const running = rejection(
        applyQueryParams(db('users'), parseQueryParams('scopes[0]=slow'), map, { timeout: 300 }),
      )
      const pid = await busyReader(readers, 5000)
      const { error, ms } = await running
      expect(error).to.be.instanceOf(QueryTimeoutError)
      expect(error).to.include({ status: 503, code: 'query_timeout', timeout: 300 })
      expect(ms).to.be.within(280, 300 + REJECTED_WITHIN)
      expect(await goneWithin(pid, GONE_WITHIN)).to.be.below(GONE_WITHIN)
    })

    it("an AbortSignal rejects with the signal's reason, and the reader process running the statement is gone", async () => {
      const readers = await settledReaders(file, 20_000)
      const controller = new AbortController()
      const running = rejection(
        applyQueryParams(db('users'), parseQueryParams('scopes[0]=slow'), map, { signal: controller.signal }),
      )
      const pid = await busyReader(readers, 5000)
      const reason = new Error('client gone')
      const abortedAt = Date.now()
      controller.abort(reason)
      const { error } = await running
      expect(error).to.equal(reason)
      expect(Date.now() - abortedAt).to.be.below(REJECTED_WITHIN)
      expect(await goneWithin(pid, GONE_WITHIN)).to.be.below(GONE_WITHIN)
    })

    it('a concurrent request is answered while a slow one runs (with a bound, in another reader; without, on the calling thread)', async () => {
      const readers = await settledReaders(file, 20_000)
      const controller = new AbortController()
      let slowSettled = false
      const slow = applyQueryParams(db('users'), parseQueryParams('scopes[0]=slow'), map, {
        signal: controller.signal,
      }).then(
        () => (slowSettled = true),
        () => (slowSettled = true),
      )
      await busyReader(readers, 5000)
      const query = parseQueryParams('orders[0][column]=id&limit=2&columns[0]=id')
      const bounded = await applyQueryParams(db('users'), query, map, { timeout: 20_000 })
      const plain = await applyQueryParams(db('users'), query, map)
      expect(slowSettled, 'the slow request still runs').to.equal(false)
      expect(bounded).to.deep.equal([{ id: 1 }, { id: 2 }])
      expect(plain).to.deep.equal(bounded)
      controller.abort()
      await slow
    })

    it('more concurrent bounded reads than readers (4 a file) wait their turn, and each gets its own rows', async () => {
      const ids = Array.from({ length: 10 }, (_, index) => index + 1)
      const rows = await Promise.all(
        ids.map((id) =>
          applyQueryParams(
            db('users'),
            parseQueryParams(
              `wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=${id}&wheres[0][boolean]=and&columns[0]=id`,
            ),
            map,
            { timeout: 20_000 },
          ),
        ),
      )
      const expected = await db('users').whereIn('id', ids).orderBy('id').select('id')
      expect(rows.flat()).to.deep.equal(expected)
      expect(readerPids(file).size, 'reader processes').to.be.within(1, 4)
    })

    it('paginate with a timeout reads page and count in readers', async () => {
      const builder = applyQueryParams(db('posts'), parseQueryParams('orders[0][column]=id&page=2&limit=3'), map)
      const plain = await paginate(builder, { page: 2, limit: 3 })
      const { result: bounded, prepared } = await preparedOnCaller(db, () =>
        paginate(builder, { page: 2, limit: 3 }, { timeout: 20_000, queries: 'parallel' }),
      )
      expect(bounded).to.deep.equal(plain)
      expect(
        prepared.filter((sql) => sql.includes('posts')),
        'statements prepared on the calling thread',
      ).to.deep.equal([])
    })

    for (const table of everyTable) {
      it(`${table}: the rows and their JSON read in a reader are those read on the calling thread (normalised and as the driver gives them)`, async () => {
        const query = parseQueryParams(`${withs[table] ?? ''}&orders[0][column]=id&limit=1000`)
        for (const values of ['json', 'driver'] as const) {
          const plain = await applyQueryParams(db(table), query, map, { values })
          const sent: string[] = []
          const record = (statement: { sql: string }): void => void sent.push(statement.sql)
          db.on('query', record)
          const { result: bounded, prepared } = await preparedOnCaller(db, () =>
            applyQueryParams(db(table), query, map, { values, timeout: 20_000 }),
          ).finally(() => db.off('query', record))
          expect(plain.length, 'rows').to.be.above(0)
          expect(bounded).to.deep.equal(plain)
          expect(JSON.stringify(bounded)).to.equal(JSON.stringify(plain))
          expect(sent.length, 'statements').to.be.above(0)
          expect(
            prepared.filter((sql) => sent.includes(sql)),
            'run on the calling thread',
          ).to.deep.equal([])
        }
      })
    }

    it('blobs, integers past 2^53, reals, text and nulls come back as the driver gives them, with and without safeIntegers', async () => {
      const safe = knex({
        client: 'better-sqlite3',
        connection: { filename: join(directory, 'reader.sqlite'), options: { safeIntegers: true } },
        useNullAsDefault: true,
      })
      configureSqliteReads(safe, { inThreadRows: 0 })
      try {
        for (const instance of [db, safe]) {
          const query = parseQueryParams('orders[0][column]=id')
          const plain = await applyQueryParams(instance('kinds'), query, kindsMap, { values: 'driver' })
          const { result: bounded, prepared } = await preparedOnCaller(instance, () =>
            applyQueryParams(instance('kinds'), query, kindsMap, { values: 'driver', timeout: 20_000 }),
          )
          expect(bounded).to.deep.equal(plain)
          expect(prepared.filter((sql) => sql.includes('kinds'))).to.deep.equal([])
          const [first] = bounded as Array<Record<string, unknown>>
          expect(Buffer.isBuffer(first?.blob)).to.equal(true)
          expect(typeof first?.big).to.equal(instance === safe ? 'bigint' : 'number')
          const json = await applyQueryParams(instance('kinds'), query, kindsMap, { timeout: 20_000 })
          expect(json).to.deep.equal(await applyQueryParams(instance('kinds'), query, kindsMap))
        }
        expect(((await safe.raw('select big from kinds where id = 1')) as Array<{ big: unknown }>)[0]?.big).to.equal(
          9007199254740993n,
        )
      } finally {
        await safe.destroy()
      }
    })

    it("an error raised while the statement runs is the driver's error, with its code", async () => {
      const badJson = defineRelationMap({
        kinds: {
          columns: { id: 'integer' },
          scopes: { broken: (query) => void query.whereRaw("json_extract('{', '$.a') is null") },
        },
      })
      const { error } = await rejection(
        applyQueryParams(db('kinds'), parseQueryParams('scopes[0]=broken'), badJson, { timeout: 20_000 }),
      )
      const { error: plain } = await rejection(
        applyQueryParams(db('kinds'), parseQueryParams('scopes[0]=broken'), badJson),
      )
      expect(error).to.be.instanceOf(Error)
      expect((error as { code?: unknown }).code).to.equal('SQLITE_ERROR')
      expect((error as Error).constructor).to.equal((plain as Error).constructor)
      expect((error as Error).message).to.equal((plain as Error).message)
    })

    it("a transaction reads its own writes (on the transaction's connection)", async () => {
      await db
        .transaction(async (trx) => {
          const [id] = await trx('teams').insert({ name: 'Uncommitted', created_at: 'now', updated_at: 'now' })
          const rows = await applyQueryParams(
            trx('teams'),
            parseQueryParams(
              `wheres[0][column]=id&wheres[0][operator]=%3D&wheres[0][value]=${id}&wheres[0][boolean]=and`,
            ),
            map,
            { timeout: 20_000 },
          )
          expect(rows.map((row: { name: unknown }) => row.name)).to.deep.equal(['Uncommitted'])
          await trx.rollback()
        })
        .catch(() => undefined)
      const after = await applyQueryParams(
        db('teams'),
        parseQueryParams(
          'wheres[0][column]=name&wheres[0][operator]=%3D&wheres[0][value]=Uncommitted&wheres[0][boolean]=and',
        ),
        map,
        { timeout: 20_000 },
      )
      expect(after).to.deep.equal([])
    })

    it('a connection with uncommitted writes of its own (a begin outside knex) reads them', async () => {
      await db.raw('begin')
      try {
        await db.raw("insert into teams (name, created_at, updated_at) values ('Raw begin', 'now', 'now')")
        const rows = await applyQueryParams(
          db('teams'),
          parseQueryParams(
            'wheres[0][column]=name&wheres[0][operator]=%3D&wheres[0][value]=Raw%20begin&wheres[0][boolean]=and',
          ),
          map,
          { timeout: 20_000 },
        )
        expect(rows.map((row: { name: unknown }) => row.name)).to.deep.equal(['Raw begin'])
      } finally {
        await db.raw('rollback')
      }
    })

    it('a temporary table of the connection, which shadows the file’s, is read on the connection', async () => {
      await db.raw('create temp table tags as select * from main.tags where id = 1')
      try {
        const rows = await applyQueryParams(db('tags'), parseQueryParams('columns[0]=id'), map, { timeout: 20_000 })
        expect(rows).to.deep.equal([{ id: 1 }])
      } finally {
        await db.raw('drop table temp.tags')
      }
    })

    it('a function registered on the connection works (the reader cannot compile it; it runs on the connection)', async () => {
      const connection = (await db.client.acquireConnection()) as {
        function(name: string, run: (value: number) => number): void
      }
      connection.function('kqp_twice', (value) => value * 2)
      await db.client.releaseConnection(connection)
      const twice = defineRelationMap({
        kinds: {
          columns: { id: 'integer' },
          scopes: { second: (query) => void query.whereRaw('kqp_twice(id) = 4') },
        },
      })
      const rows = await applyQueryParams(db('kinds'), parseQueryParams('scopes[0]=second'), twice, {
        timeout: 20_000,
      })
      expect(rows).to.deep.equal([{ id: 2 }])
    })
  })
}

describe("SQLite's bound on a database in memory", () => {
  it('keeps working on the calling thread (no reader can open it)', async () => {
    const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
    try {
      await migrate(db)
      await seed(db)
      const query = parseQueryParams('orders[0][column]=id&limit=3&with[0]=posts')
      const plain = await applyQueryParams(db('users'), query, map)
      const { result: bounded, prepared } = await preparedOnCaller(db, () =>
        applyQueryParams(db('users'), query, map, { timeout: 20_000 }),
      )
      expect(bounded).to.deep.equal(plain)
      expect(prepared.some((sql) => sql.includes('users'))).to.equal(true)
    } finally {
      await db.destroy()
    }
  })
})
