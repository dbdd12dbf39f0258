import { expect } from 'chai'
import knex, { type Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams, transientDatabaseError, type RelationMap } from '../../lib/index.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { idleWithin, sleepingWithin } from './support/sleeping.ts'

/** The fixture map with a `nap` scope on users: a where that sleeps 1 s on the first row it reads. */
function nappingMap(db: TestDatabase): RelationMap {
  const nap = db.name === 'mysql' ? 'sleep(1) = 0' : 'pg_sleep(1) is not null'
  const users = relationMap.users
  return {
    ...relationMap,
    users: { ...users, scopes: { ...users.scopes, nap: (query: Knex.QueryBuilder) => void query.whereRaw(nap) } },
  }
}

/** Ends the session of the statement sleeping in `db`'s test database, as a server restart or a failover would. */
async function killSleepingSession(db: TestDatabase): Promise<void> {
  await sleepingWithin(db, 5000)
  const name = db.server?.name ?? ''
  if (db.name === 'mysql') {
    const [rows] = (await db.knex.raw(
      "select id from information_schema.processlist where db = ? and command = 'Query' and info like '%sleep(%' and id <> connection_id()",
      [name],
    )) as [Array<{ id: number }>]
    for (const { id } of rows) await db.knex.raw('kill connection ?', [id])
    return
  }
  await db.knex.raw(
    "select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and query like '%pg_sleep%' and pid <> pg_backend_pid()",
    [name],
  )
}

for (const db of testDatabases().filter(
  (candidate) => candidate.engine === 'postgres-server' || candidate.engine === 'mysql',
)) {
  describe(`retryTransient on ${db.label}: a read whose session is killed runs again within the deadline`, function () {
    this.timeout(20_000)
    const params = parseQueryParams('scopes[0]=nap&orders[0][column]=id&limit=1')
    /** A pool of the test's own (killed sessions never reach the suite's pool), on the suite's database. */
    let own: Knex

    beforeEach(() => {
      own = knex(db.knex.client.config as Knex.Config)
    })

    afterEach(async () => {
      await own.destroy()
      await idleWithin(db, 5000)
    })

    it('off by default: the caller gets the transient failure', async () => {
      const reading = applyQueryParams(own('users'), params, nappingMap(db), { timeout: 5000 }).then(
        () => undefined,
        (failure: unknown) => failure,
      )
      await killSleepingSession(db)
      expect(transientDatabaseError(await reading)?.reason).to.be.oneOf(['shutdown', 'connection'])
    })

    it('the killed connection leaves the pool: the next read at once gets a live one (one connection in the pool)', async () => {
      const single = knex({ ...(db.knex.client.config as Knex.Config), pool: { min: 0, max: 1 } })
      try {
        const session = async (): Promise<number> => {
          const sql = db.name === 'mysql' ? 'select connection_id() as id' : 'select pg_backend_pid() as id'
          const result = (await single.raw(sql)) as { rows?: Array<{ id: number }> } & Array<Array<{ id: number }>>
          return Number((result.rows ?? result[0])?.[0]?.id)
        }
        const killed = await session()
        const reading = applyQueryParams(single('users'), params, nappingMap(db), { timeout: 5000 }).then(
          () => undefined,
          (failure: unknown) => failure,
        )
        await killSleepingSession(db)
        expect(transientDatabaseError(await reading)?.reason).to.be.oneOf(['shutdown', 'connection'])
        // Straight after the failure: the pool's only connection was the killed one.
        expect(await session())
          .to.be.a('number')
          .and.not.equal(killed)
      } finally {
        await single.destroy()
      }
    })

    it('retryTransient: 1 reads the rows on a new connection', async () => {
      const reading = applyQueryParams(own('users'), params, nappingMap(db), { timeout: 5000, retryTransient: 1 }).then(
        (rows) => rows,
      )
      await killSleepingSession(db)
      const rows = (await reading) as Array<{ id: number }>
      expect(rows.map((row) => row.id)).to.deep.equal([1])
    })

    it("never inside the caller's transaction: the failure is the caller's to handle", async () => {
      const reading = own
        .transaction((trx) =>
          applyQueryParams(trx('users'), params, nappingMap(db), { timeout: 5000, retryTransient: 3 }).then(
            (rows) => rows,
          ),
        )
        .then(
          () => undefined,
          (failure: unknown) => failure,
        )
      await killSleepingSession(db)
      expect(transientDatabaseError(await reading)).not.to.equal(undefined)
    })
  })
}
