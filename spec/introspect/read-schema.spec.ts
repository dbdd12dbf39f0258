import { expect } from 'chai'
import type { Knex } from 'knex'
import { CATALOG_TABLES } from '../../fixtures/catalog/catalog-tables.ts'
import { catalogSnapshot } from '../../fixtures/catalog/catalog-snapshot.ts'
import { createCatalog } from '../../fixtures/catalog/create-catalog.ts'
import { migrate } from '../../fixtures/migrate.ts'
import { DEMO_TABLES } from '../../fixtures/tables.ts'
import { readSchema } from '../../lib/introspect/read-schema.ts'
import type { SchemaTable } from '../../lib/dialect/schema/schema-snapshot.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { demoSnapshot } from './support/demo-snapshot.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'

const names = (tables: readonly SchemaTable[]): string[] => tables.map((table) => table.name)
const byCodePoint = (values: readonly string[]): string[] => [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

async function tableOf(db: Knex, name: string): Promise<SchemaTable> {
  const [table] = (await readSchema(db, { tables: [name] })).tables
  if (table === undefined) throw new Error(`no ${name}`)
  return table
}

for (const database of testDatabases()) {
  describe(`readSchema (${database.label})`, function () {
    this.timeout(60_000)
    let fresh: TestDatabase

    before(async () => {
      fresh = await freshDatabase(database, 'schema')
      await migrate(fresh.knex)
      await createCatalog(fresh.knex)
    })

    after(async () => {
      await dropFreshDatabase(fresh)
    })

    it('reads the demo tables of the migrated suite database: columns, types, nullability, keys, uniques, foreign keys', async () => {
      expect(await readSchema(database.knex, { tables: DEMO_TABLES })).to.deep.equal(demoSnapshot(database.name))
    })

    it('reads the catalog schema: keys not named id, PascalCase names, a composite key, a two-column unique, json, a self-reference', async () => {
      expect(await readSchema(fresh.knex, { tables: CATALOG_TABLES })).to.deep.equal(catalogSnapshot(database.name))
    })

    it('reads every table by default, sorted by code point, without knex_migrations and knex_migrations_lock', async () => {
      const snapshot = await readSchema(fresh.knex)
      expect(names(snapshot.tables)).to.deep.equal(byCodePoint([...DEMO_TABLES, ...CATALOG_TABLES]))
      expect(snapshot).to.deep.equal({
        tables: [...demoSnapshot(database.name).tables, ...catalogSnapshot(database.name).tables].sort((a, b) =>
          a.name < b.name ? -1 : 1,
        ),
      })
    })

    it('options.tables reads only those (a migration table too, when named); options.exclude leaves tables out', async () => {
      expect(
        names((await readSchema(fresh.knex, { tables: ['playlist_track', 'Artist', 'knex_migrations'] })).tables),
      ).to.deep.equal(['Artist', 'knex_migrations', 'playlist_track'])
      const excluded = await readSchema(fresh.knex, { exclude: [...DEMO_TABLES, 'app_user'] })
      expect(names(excluded.tables)).to.deep.equal(byCodePoint(CATALOG_TABLES.filter((table) => table !== 'app_user')))
      expect(
        names((await readSchema(fresh.knex, { tables: ['Artist', 'Album'], exclude: ['Album'] })).tables),
      ).to.deep.equal(['Artist'])
    })

    it('a table named in options.tables that does not exist is an Error naming it', async () => {
      const error = await readSchema(fresh.knex, { tables: ['Artist', 'artist', 'Nope'] }).catch(
        (caught: unknown) => caught,
      )
      expect(error).to.be.instanceOf(Error)
      expect((error as Error).message).to.equal(`readSchema: no table 'artist', 'Nope' in the database`)
    })

    it('a composite foreign key keeps its column order; a table without a primary key has an empty one', async () => {
      await fresh.knex.schema.createTable('track_note', (table) => {
        table.integer('track_id').unsigned().notNullable()
        table.integer('playlist_id').unsigned().notNullable()
        table.string('note').nullable()
        table
          .foreign(['playlist_id', 'track_id'], 'track_note_entry_foreign')
          .references(['playlist_id', 'track_id'])
          .inTable('playlist_track')
      })
      try {
        const table = await tableOf(fresh.knex, 'track_note')
        expect(table.primaryKey).to.deep.equal([])
        expect(table.foreignKeys).to.deep.equal([
          {
            name: database.name === 'sqlite' ? undefined : 'track_note_entry_foreign',
            columns: ['playlist_id', 'track_id'],
            referencedTable: 'playlist_track',
            referencedColumns: ['playlist_id', 'track_id'],
            enforced: true,
          },
        ])
      } finally {
        await fresh.knex.schema.dropTable('track_note')
      }
    })

    if (database.name !== 'mysql') {
      it('partial unique indexes and unique indexes on expressions are not uniques', async () => {
        await fresh.knex.raw('create unique index playlist_named_unique on playlist (name) where owner_id is null')
        await fresh.knex.raw('create unique index artist_lower_name_unique on "Artist" (lower("Name"))')
        await fresh.knex.raw('create unique index album_title_unique on "Album" ("Title", "ArtistId")')
        try {
          expect((await tableOf(fresh.knex, 'playlist')).uniques).to.deep.equal([['owner_id', 'name']])
          expect((await tableOf(fresh.knex, 'Artist')).uniques).to.deep.equal([])
          expect((await tableOf(fresh.knex, 'Album')).uniques).to.deep.equal([['Title', 'ArtistId']])
        } finally {
          for (const index of ['playlist_named_unique', 'artist_lower_name_unique', 'album_title_unique'])
            await fresh.knex.raw(`drop index ${index}`)
        }
      })
    }

    it('indexes: every plain or unique index and the primary key by their key columns; partial and expression indexes left out', async () => {
      await fresh.knex.schema.alterTable('Artist', (table) => table.index(['Name', 'ArtistId'], 'artist_name_index'))
      await fresh.knex.schema.alterTable('Album', (table) => table.index(['Title'], 'album_title_index'))
      if (database.name !== 'mysql') {
        await fresh.knex.raw('create index playlist_named_index on playlist (name) where owner_id is null')
        await fresh.knex.raw('create index artist_lower_name_index on "Artist" (lower("Name"))')
      }
      try {
        expect((await tableOf(fresh.knex, 'Artist')).indexes).to.deep.equal([['ArtistId'], ['Name', 'ArtistId']])
        expect((await tableOf(fresh.knex, 'Album')).indexes).to.deep.equal([['AlbumId'], ['ArtistId'], ['Title']])
        expect((await tableOf(fresh.knex, 'playlist')).indexes).to.deep.equal([['id'], ['owner_id', 'name']])
      } finally {
        await fresh.knex.schema.alterTable('Artist', (table) => table.dropIndex([], 'artist_name_index'))
        await fresh.knex.schema.alterTable('Album', (table) => table.dropIndex([], 'album_title_index'))
        if (database.name !== 'mysql')
          for (const index of ['playlist_named_index', 'artist_lower_name_index'])
            await fresh.knex.raw(`drop index ${index}`)
      }
    })

    if (database.name === 'postgres') {
      it('indexes: a hash or GIN index serves no order and is left out', async () => {
        await fresh.knex.raw('create index artist_name_hash on "Artist" using hash ("Name")')
        await fresh.knex.raw(`create index album_title_gin on "Album" using gin (to_tsvector('simple', "Title"))`)
        try {
          expect((await tableOf(fresh.knex, 'Artist')).indexes).to.deep.equal([['ArtistId']])
          expect((await tableOf(fresh.knex, 'Album')).indexes).to.deep.equal([['AlbumId'], ['ArtistId']])
        } finally {
          for (const index of ['artist_name_hash', 'album_title_gin']) await fresh.knex.raw(`drop index ${index}`)
        }
      })
    }

    if (database.name === 'mysql') {
      it('indexes: a prefix part ends an index (a leading prefix leaves it out); a full-text index serves no order', async () => {
        await fresh.knex.raw('create index artist_name_prefix on `Artist` (`Name`(5))')
        await fresh.knex.raw('create index album_artist_title_prefix on `Album` (`ArtistId`, `Title`(5))')
        await fresh.knex.raw('create fulltext index track_name_fulltext on `Track` (`Name`)')
        try {
          expect((await tableOf(fresh.knex, 'Artist')).indexes).to.deep.equal([['ArtistId']])
          expect((await tableOf(fresh.knex, 'Album')).indexes).to.deep.equal([['AlbumId'], ['ArtistId']])
          expect((await tableOf(fresh.knex, 'Track')).indexes).to.deep.equal([['AlbumId'], ['Name'], ['TrackId']])
        } finally {
          await fresh.knex.raw('drop index artist_name_prefix on `Artist`')
          await fresh.knex.raw('drop index album_artist_title_prefix on `Album`')
          await fresh.knex.raw('drop index track_name_fulltext on `Track`')
        }
      })
    }

    if (database.name === 'postgres') {
      it('a NOT VALID foreign key, and one whose triggers are disabled, are not enforced', async () => {
        await fresh.knex.raw(
          'alter table "Track" add constraint track_album_not_valid foreign key ("AlbumId") references "Album" ("AlbumId") not valid',
        )
        try {
          const enforcedOf = async (): Promise<Record<string, boolean>> =>
            Object.fromEntries(
              (await tableOf(fresh.knex, 'Track')).foreignKeys.map((foreignKey) => [
                foreignKey.name,
                foreignKey.enforced,
              ]),
            )
          expect(await enforcedOf()).to.deep.equal({ track_albumid_foreign: true, track_album_not_valid: false })
          await fresh.knex.raw('alter table "Track" disable trigger all')
          expect(await enforcedOf()).to.deep.equal({ track_albumid_foreign: false, track_album_not_valid: false })
        } finally {
          await fresh.knex.raw('alter table "Track" enable trigger all')
          await fresh.knex.raw('alter table "Track" drop constraint track_album_not_valid')
        }
      })

      it('options.schema reads another schema; the current schema stays the default', async () => {
        await fresh.knex.raw('create schema kqp_other')
        try {
          await fresh.knex.raw(
            'create table kqp_other."Artist" (id serial primary key, "ArtistId" integer not null references public."Artist" ("ArtistId"))',
          )
          const other = await readSchema(fresh.knex, { schema: 'kqp_other' })
          expect(names(other.tables)).to.deep.equal(['Artist'])
          expect(other.tables[0]?.foreignKeys).to.deep.equal([
            {
              name: 'Artist_ArtistId_fkey',
              columns: ['ArtistId'],
              referencedTable: 'public.Artist',
              referencedColumns: ['ArtistId'],
              enforced: true,
            },
          ])
          expect((await tableOf(fresh.knex, 'Artist')).columns.map((column) => column.name)).to.deep.equal([
            'ArtistId',
            'Name',
          ])
        } finally {
          await fresh.knex.raw('drop schema kqp_other cascade')
        }
      })

      it('an enum (with its values in declaration order), a domain, an array and bytea: their base or no map type', async () => {
        await fresh.knex.raw(`create type kqp_mood as enum ('sad', 'ok')`)
        await fresh.knex.raw('create domain kqp_positive as integer not null check (value > 0)')
        try {
          await fresh.knex.raw(
            'create table kqp_types (mood kqp_mood, amount kqp_positive, tags text[], data bytea, at time)',
          )
          expect((await tableOf(fresh.knex, 'kqp_types')).columns).to.deep.equal([
            { name: 'mood', dataType: 'kqp_mood', type: 'string', nullable: true, values: ['sad', 'ok'] },
            { name: 'amount', dataType: 'integer', type: 'integer', nullable: false },
            { name: 'tags', dataType: 'text[]', type: undefined, nullable: true },
            { name: 'data', dataType: 'bytea', type: undefined, nullable: true },
            { name: 'at', dataType: 'time without time zone', type: undefined, nullable: true },
          ])
        } finally {
          await fresh.knex.raw('drop table if exists kqp_types')
          await fresh.knex.raw('drop domain kqp_positive')
          await fresh.knex.raw('drop type kqp_mood')
        }
      })
    }

    if (database.name === 'sqlite') {
      it('with PRAGMA foreign_keys off no foreign key is enforced; a key of a rowid table that is not INTEGER may hold NULL', async () => {
        await fresh.knex.raw('pragma foreign_keys = off')
        try {
          expect(
            (await tableOf(fresh.knex, 'Album')).foreignKeys.map((foreignKey) => foreignKey.enforced),
          ).to.deep.equal([false])
        } finally {
          await fresh.knex.raw('pragma foreign_keys = on')
        }
        await fresh.knex.raw('create table kqp_keys (code text primary key, n int)')
        await fresh.knex.raw('create table kqp_keys_wr (code text primary key, n int) without rowid')
        try {
          expect((await tableOf(fresh.knex, 'kqp_keys')).columns[0]).to.deep.equal({
            name: 'code',
            dataType: 'text',
            type: 'string',
            nullable: true,
          })
          expect((await tableOf(fresh.knex, 'kqp_keys_wr')).columns[0]).to.deep.equal({
            name: 'code',
            dataType: 'text',
            type: 'string',
            nullable: false,
          })
        } finally {
          await fresh.knex.raw('drop table kqp_keys')
          await fresh.knex.raw('drop table kqp_keys_wr')
        }
      })

      it('options.schema reads an attached database', async () => {
        await fresh.knex.raw(`attach database ':memory:' as kqp_other`)
        try {
          await fresh.knex.raw('create table kqp_other.note (id integer primary key, body varchar(20) not null unique)')
          expect(await readSchema(fresh.knex, { schema: 'kqp_other' })).to.deep.equal({
            tables: [
              {
                name: 'note',
                columns: [
                  { name: 'id', dataType: 'integer', type: 'integer', nullable: false },
                  { name: 'body', dataType: 'varchar', type: 'string', nullable: false },
                ],
                primaryKey: ['id'],
                uniques: [['body']],
                indexes: [['body'], ['id']],
                foreignKeys: [],
              },
            ],
          })
        } finally {
          await fresh.knex.raw('detach database kqp_other')
        }
      })
    }

    if (database.name === 'mysql') {
      it('with foreign_key_checks off for the session no foreign key is enforced; a MyISAM table keeps none', async () => {
        await fresh.knex.transaction(async (trx) => {
          await trx.raw('set foreign_key_checks = 0')
          expect((await tableOf(trx, 'Album')).foreignKeys.map((foreignKey) => foreignKey.enforced)).to.deep.equal([
            false,
          ])
          await trx.raw('set foreign_key_checks = 1')
        })
        expect((await tableOf(fresh.knex, 'Album')).foreignKeys.map((foreignKey) => foreignKey.enforced)).to.deep.equal(
          [true],
        )
      })

      it('options.schema reads another database of the server: the suite database', async () => {
        const other = await readSchema(fresh.knex, { schema: database.server?.name ?? '', tables: ['users'] })
        expect(other).to.deep.equal({ tables: demoSnapshot('mysql').tables.filter((table) => table.name === 'users') })
      })
    }
  })
}
