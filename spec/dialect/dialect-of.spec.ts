import { PGlite } from '@electric-sql/pglite'
import { expect } from 'chai'
import knex from 'knex'
import type { Knex } from 'knex'
import ClientPgLite from 'knex-pglite'
import { applyQueryParams, paginate, parseQueryParams } from '../../lib/index.ts'
import { dialectOf } from '../../lib/dialect/dialect-of.ts'
import { driverReadingOf } from '../../lib/dialect/driver-reading.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { readSchema } from '../../lib/introspect/read-schema.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'

const unlisted = (name: string): string =>
  `knex-query-params: the knex client '${name}' is not one the library knows (pg, postgres, postgresql, knex-pglite, sqlite3, sqlite, better-sqlite3, mysql, mysql2). ` +
  "If the database speaks the SQL of one of them, declare it with the option dialect: 'postgres', 'mysql' or 'sqlite' " +
  '(of applyQueryParams, loadRelations, paginate and the introspection functions; --dialect for the CLI).'

const map = {
  users: {
    columns: { id: 'integer', name: 'string' },
    relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
  },
  posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
} satisfies RelationMap

const REQUEST =
  'wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=a%&with[0]=posts&orders[0][column]=name&limit=2'

/**
 * A PostgreSQL-compatible client the library does not list, as a package wrapping a driver would ship it: here
 * knex-pglite's, on one PGlite database the tests share (destroying a knex instance leaves it open).
 */
class AcmePostgresClient extends ClientPgLite {
  override async destroyRawConnection(): Promise<void> {}
}

/** A knex instance compiling for `client`, with no connection (no driver is loaded). */
const compileOnly = (client: string): Knex => knex({ client })

/** knex's own refusal of a client name it does not have (knex before 3.3.0 has no `mariadb` client). */
const UNKNOWN_TO_KNEX = /Unknown configuration option 'client' value/

/** Whether the installed knex has a client of this name. */
function knexHas(client: string): boolean {
  try {
    compileOnly(client)
    return true
  } catch (error) {
    if (error instanceof Error && UNKNOWN_TO_KNEX.test(error.message)) return false
    throw error
  }
}

describe('dialectOf: only the knex clients it lists, or a declared dialect', () => {
  it('knows pg, postgres, postgresql, knex-pglite, sqlite3, sqlite, better-sqlite3, mysql and mysql2', () => {
    const names = ['pg', 'postgres', 'postgresql', 'sqlite3', 'sqlite', 'better-sqlite3', 'mysql', 'mysql2'].map(
      (client) => dialectOf(knex({ client, useNullAsDefault: true }).client).name,
    )
    expect(names).to.deep.equal(['postgres', 'postgres', 'postgres', 'sqlite', 'sqlite', 'sqlite', 'mysql', 'mysql'])
    expect(dialectOf(knex({ client: ClientPgLite }).client).name).to.equal('postgres')
  })

  it('throws a plain Error naming the dialect option for any other client (cockroachdb, pgnative, mariadb, redshift, a class of another package)', () => {
    for (const client of ['cockroachdb', 'pgnative', 'mariadb', 'redshift', 'mssql']) {
      // A name knex does not have never reaches the library: knex refuses it first.
      if (!knexHas(client)) {
        expect(() => compileOnly(client), client).to.throw(Error, UNKNOWN_TO_KNEX)
        continue
      }
      const db = compileOnly(client)
      expect(() => applyQueryParams(db('users'), parseQueryParams(REQUEST), map), client).to.throw(
        Error,
        unlisted(client),
      )
    }
    expect(() => dialectOf(knex({ client: AcmePostgresClient }).client)).to.throw(Error, unlisted('AcmePostgresClient'))
  })

  it("dialect: 'postgres' makes a cockroachdb or pgnative client write PostgreSQL's SQL", () => {
    const expected = applyQueryParams(compileOnly('pg')('users'), parseQueryParams(REQUEST), map).toSQL().toNative()
    for (const client of ['cockroachdb', 'pgnative']) {
      const query = applyQueryParams(compileOnly(client)('users'), parseQueryParams(REQUEST), map, {
        dialect: 'postgres',
      })
      expect(query.toSQL().toNative(), client).to.deep.equal(expected)
      expect(query.toSQL().sql).to.include('ilike')
    }
    if (!knexHas('mariadb')) return
    const mariadb = applyQueryParams(compileOnly('mariadb')('users'), parseQueryParams(REQUEST), map, {
      dialect: 'mysql',
    })
    expect(mariadb.toSQL().toNative()).to.deep.equal(
      applyQueryParams(compileOnly('mysql2')('users'), parseQueryParams(REQUEST), map).toSQL().toNative(),
    )
  })

  describe('on a database', () => {
    let pglite: PGlite
    /** A new knex instance (a configuration of its own, so nothing declared yet) on the shared PGlite database. */
    const acme = (): Knex =>
      knex({ client: AcmePostgresClient, connection: (() => ({ pglite })) as unknown as Knex.ConnectionConfigProvider })

    before(async function () {
      this.timeout(60_000)
      pglite = new PGlite()
      const db = acme()
      await db.schema.createTable('users', (table) => {
        table.increments('id')
        table.string('name')
      })
      await db.schema.createTable('posts', (table) => {
        table.increments('id')
        table.integer('user_id')
        table.string('title')
      })
      await db('users').insert([{ name: 'ada' }, { name: 'alan' }, { name: 'bob' }])
      await db('posts').insert([
        { user_id: 1, title: 'one' },
        { user_id: 2, title: 'two' },
      ])
      await db.destroy()
    })

    after(async () => {
      await pglite.close()
    })

    const expected = [
      { id: 1, name: 'ada', posts: [{ id: 1, user_id: 1, title: 'one' }] },
      { id: 2, name: 'alan', posts: [{ id: 2, user_id: 2, title: 'two' }] },
    ]

    it('a declared client runs every entry point on its database: applyQueryParams, paginate, loadRelations, readSchema, and its transactions', async () => {
      const db = acme()
      try {
        expect(() => applyQueryParams(db('users'), parseQueryParams(REQUEST), map)).to.throw(
          Error,
          unlisted('AcmePostgresClient'),
        )
        const query = applyQueryParams(db('users'), parseQueryParams(REQUEST), map, { dialect: 'postgres' })
        expect(query.toSQL().sql).to.include('ilike')
        expect(rowsOf(await query)).to.deep.equal(expected)
        // The declaration holds for the knex instance: later calls need not repeat it.
        const page = await paginate(
          applyQueryParams(db('users'), parseQueryParams(REQUEST), map),
          {},
          { queries: 'transaction' },
        )
        expect(page).to.deep.equal({
          data: expected,
          meta: { current_page: 1, per_page: 2, from: 1, to: 2, total: 2, last_page: 1 },
        })
        const users = await db('users').select('id', 'name').orderBy('id')
        expect(await loadRelations(db, 'users', users, ['posts'], map)).to.deep.equal([
          ...expected,
          { id: 3, name: 'bob', posts: [] },
        ])
        await db.transaction(async (trx) => {
          expect(
            rowsOf(
              await applyQueryParams(
                trx('users'),
                parseQueryParams('wheres[0][column]=name&wheres[0][value]=bob'),
                map,
              ),
            ),
          ).to.deep.equal([{ id: 3, name: 'bob' }])
        })
        expect((await readSchema(db)).tables.map((table) => table.name)).to.deep.equal(['posts', 'users'])
        expect(driverReadingOf(db.client as Knex.Client)).to.deep.equal({
          zone: 'local',
          datetime: 'instant',
          json: 'parsed',
        })
      } finally {
        await db.destroy()
      }
    })

    it('loadRelations, paginate and readSchema take the option too', async () => {
      const calls: Array<(db: Knex) => Promise<unknown>> = [
        async (db) =>
          expect(await loadRelations(db, 'users', [{ id: 1 }], ['posts'], map, { dialect: 'postgres' })).to.deep.equal([
            { id: 1, posts: expected[0]?.posts },
          ]),
        async (db) =>
          expect(
            (await paginate(db('users').where('id', 3), {}, { dialect: 'postgres', queries: 'transaction' })).meta
              .total,
          ).to.equal(1),
        async (db) => expect((await readSchema(db, { dialect: 'postgres' })).tables).to.have.length(2),
      ]
      for (const call of calls) {
        const db = acme()
        try {
          await call(db)
          expect(dialectOf(db.client as Knex.Client).name).to.equal('postgres')
        } finally {
          await db.destroy()
        }
      }
    })
  })

  it('refuses a declaration that contradicts the client, an earlier declaration, or names no dialect', () => {
    expect(() =>
      applyQueryParams(compileOnly('pg')('users'), parseQueryParams(REQUEST), map, { dialect: 'mysql' }),
    ).to.throw(Error, "knex-query-params: dialect 'mysql' declared for the knex client 'pg', which is postgres")
    const cockroach = compileOnly('cockroachdb')
    applyQueryParams(cockroach('users'), parseQueryParams(REQUEST), map, { dialect: 'postgres' })
    expect(() => applyQueryParams(cockroach('users'), parseQueryParams(REQUEST), map, { dialect: 'sqlite' })).to.throw(
      Error,
      "knex-query-params: dialect 'sqlite' declared for a knex instance declared 'postgres' before",
    )
    const options = JSON.parse('{ "dialect": "postgresql" }') as { dialect: 'postgres' }
    expect(() =>
      applyQueryParams(compileOnly('cockroachdb')('users'), parseQueryParams(REQUEST), map, options),
    ).to.throw(Error, "knex-query-params: unknown dialect 'postgresql'; expected 'postgres', 'mysql' or 'sqlite'")
  })

  it("reads knex-pglite's dates as PGlite builds them (UTC midnight), pg's in the local zone", () => {
    expect(driverReadingOf(knex({ client: ClientPgLite }).client)).to.deep.equal({
      zone: 0,
      datetime: 'instant',
      json: 'parsed',
    })
    expect(driverReadingOf(knex({ client: 'pg' }).client)).to.deep.equal({
      zone: 'local',
      datetime: 'instant',
      json: 'parsed',
    })
  })
})
