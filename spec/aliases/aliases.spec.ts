import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import { explainRequest } from '../../lib/cli/explain-request.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'
import { createMusicTables, dropMusicTables, musicMap } from './support/music-schema.ts'

const music = (db: TestDatabase, table: string, query: string): Knex.QueryBuilder =>
  applyQueryParams(db.knex(table), parseQueryParams(query), musicMap)

/** Rows as plain JSON, numbers from any driver compared as numbers. */
const plain = (result: unknown): unknown => JSON.parse(JSON.stringify(rowsOf(result)))

for (const db of testDatabases()) {
  describe(`column aliases (${db.name})`, () => {
    before(async () => createMusicTables(db.knex))
    after(async () => dropMusicTables(db.knex))

    it('filters and orders by client names, selects every column under its client name', async () => {
      const query = music(
        db,
        'alias_albums',
        'wheres[0][column]=artistId&wheres[0][value]=1&orders[0][column]=title&orders[0][direction]=desc',
      )
      expectSql(db.name, 'aliases/filter and order', query)
      expect(plain(await query)).to.deep.equal([
        { albumId: 11, title: 'Let There Be Rock', artistId: 1 },
        { albumId: 10, title: 'For Those About To Rock', artistId: 1 },
      ])
    })

    it('selects the requested columns, keeping the eager-loading key under its client name only while matching', async () => {
      const query = music(db, 'alias_albums', 'columns[0]=title&with[0]=artist&orders[0][column]=albumId')
      expectSql(db.name, 'aliases/columns with belongsTo', query)
      expect(plain(await query)).to.deep.equal([
        { title: 'For Those About To Rock', artist: { artistId: 1, name: 'AC/DC' } },
        { title: 'Let There Be Rock', artist: { artistId: 1, name: 'AC/DC' } },
        { title: 'Balls to the Wall', artist: { artistId: 2, name: 'Accept' } },
      ])
    })

    it('keeps the camelCase → snake_case match for columns that are not aliased', async () => {
      const query = music(
        db,
        'alias_tracks',
        'columns[0]=name&columns[1]=playCount&wheres[0][column]=playCount&wheres[0][operator]=>&wheres[0][value]=2&orders[0][column]=trackId',
      )
      expectSql(db.name, 'aliases/unaliased snake case', query)
      expect(plain(await query)).to.deep.equal([
        { name: 'Put The Finger On You', play_count: 3 },
        { name: 'Inject The Venom', play_count: 3 },
        { name: 'Go Down', play_count: 7 },
        { name: 'Balls to the Wall', play_count: 3 },
      ])
    })

    it('does not let the client name the database column of an aliased column', () => {
      for (const param of [
        'wheres[0][column]=ArtistId&wheres[0][value]=1',
        'orders[0][column]=Title',
        'columns[0]=AlbumId',
        'distinct[0]=ArtistId',
      ]) {
        const key = param.split('=')[0] ?? ''
        expectQueryParamsError(() => music(db, 'alias_albums', param), {
          code: 'unknown_column',
          param: key,
          allowed: ['albumId', 'title', 'artistId'],
        })
      }
    })

    it('distinct by an aliased column returns it under the client name, paged and counted', async () => {
      const query = music(db, 'alias_albums', 'distinct[0]=artistId&limit=5')
      expectSql(db.name, 'aliases/distinct paged', query)
      expectSql(db.name, 'aliases/distinct count', countQuery(query))
      expect(plain(await query)).to.deep.equal([{ artistId: 1 }, { artistId: 2 }])
      const page = await paginate(music(db, 'alias_albums', 'distinct[0]=artistId&page=1&limit=1'), {
        page: 1,
        limit: 1,
      })
      expect(JSON.parse(JSON.stringify(page))).to.deep.include({ data: [{ artistId: 1 }] })
      expect(page.meta.total).to.equal(2)
    })

    it('orders a distinct query only by selected columns, named by the client', () => {
      expectQueryParamsError(() => music(db, 'alias_albums', 'distinct[0]=artistId&orders[0][column]=title'), {
        code: 'invalid_order',
        param: 'orders[0][column]',
        allowed: ['artistId'],
      })
    })

    it('filters through relations with aliased keys and columns (guards apply on the way)', async () => {
      const query = music(
        db,
        'alias_tracks',
        'wheres[0][column]=album.artist.name&wheres[0][operator]=like&wheres[0][value]=A%25&columns[0]=trackId&orders[0][column]=trackId',
      )
      expectSql(db.name, 'aliases/relation filter', query)
      expect(plain(await query)).to.deep.equal([{ trackId: 100 }, { trackId: 101 }, { trackId: 102 }, { trackId: 103 }])
      const exists = music(db, 'alias_artists', 'relationsExists[0]=albums&orders[0][column]=name')
      expectSql(db.name, 'aliases/relations exists', exists)
      expect(plain(await exists)).to.deep.equal([
        { artistId: 1, name: 'AC/DC' },
        { artistId: 2, name: 'Accept' },
      ])
    })

    it('orders by an aliased column of a related table', async () => {
      const query = music(
        db,
        'alias_tracks',
        'columns[0]=trackId&orders[0][column]=album.title&orders[1][column]=name&limit=4',
      )
      expectSql(db.name, 'aliases/order by relation column', query)
      // Tracks without a visible album (the single, and the demo of the guarded album) sort first, as NULL.
      expect(plain(await query)).to.deep.equal([{ trackId: 104 }, { trackId: 105 }, { trackId: 103 }, { trackId: 101 }])
    })

    it('orders by a column of a morphOne relation through aliased keys (joined to the lowest-keyed related row)', async () => {
      const query = music(db, 'alias_albums', 'columns[0]=albumId&orders[0][column]=note.body')
      expectSql(db.name, 'aliases/order by morphOne column', query)
      expect(plain(await query)).to.deep.equal([{ albumId: 11 }, { albumId: 10 }, { albumId: 12 }])
    })

    it('eager-loads through aliased keys at every level, rows keyed by client names', async () => {
      const { result, queries } = await countQueries(db.knex, () =>
        music(db, 'alias_artists', 'with[0]=albums.tracks&wheres[0][column]=artistId&wheres[0][value]=1'),
      )
      expect(queries).to.have.length(3)
      expect(plain(result)).to.deep.equal([
        {
          artistId: 1,
          name: 'AC/DC',
          albums: [
            {
              albumId: 10,
              title: 'For Those About To Rock',
              artistId: 1,
              tracks: [
                { trackId: 100, name: 'Put The Finger On You', milliseconds: 205662, play_count: 3 },
                { trackId: 101, name: 'Inject The Venom', milliseconds: 210834, play_count: 3 },
              ],
            },
            {
              albumId: 11,
              title: 'Let There Be Rock',
              artistId: 1,
              tracks: [{ trackId: 102, name: 'Go Down', milliseconds: 331180, play_count: 7 }],
            },
          ],
        },
      ])
      expectSql(db.name, 'aliases/eager hasMany', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
    })

    it('filters and eager-loads belongsToMany through a pivot table, keyed by aliased columns on both sides', async () => {
      const loaded = await music(
        db,
        'alias_tracks',
        'columns[0]=name&with[0]=playlists&wheres[0][column]=trackId&wheres[0][value]=103',
      )
      expect(plain(loaded)).to.deep.equal([
        {
          name: 'Balls to the Wall',
          playlists: [
            { playlistId: 1, name: 'Rock' },
            { playlistId: 2, name: 'Short' },
          ],
        },
      ])
      const filtered = music(
        db,
        'alias_tracks',
        'wheres[0][column]=playlists.name&wheres[0][value]=Short&columns[0]=trackId&orders[0][column]=trackId',
      )
      expectSql(db.name, 'aliases/belongsToMany filter', filtered)
      expect(plain(await filtered)).to.deep.equal([
        { trackId: 100 },
        { trackId: 101 },
        { trackId: 103 },
        { trackId: 105 },
      ])
    })

    it('eager-loads morph relations through aliased type and id columns', async () => {
      const albums = await music(db, 'alias_albums', 'columns[0]=title&with[0]=notes&orders[0][column]=albumId')
      expect(plain(albums)).to.deep.equal([
        {
          title: 'For Those About To Rock',
          notes: [{ noteId: 1, body: 'Live favourite', notableType: 'Album', notableId: 10 }],
        },
        { title: 'Let There Be Rock', notes: [] },
        { title: 'Balls to the Wall', notes: [{ noteId: 2, body: 'Remastered', notableType: 'Album', notableId: 12 }] },
      ])
      const notes = await music(db, 'alias_notes', 'columns[0]=body&with[0]=notable&orders[0][column]=noteId')
      expect(plain(notes)).to.deep.equal([
        { body: 'Live favourite', notable: { albumId: 10, title: 'For Those About To Rock', artistId: 1 } },
        { body: 'Remastered', notable: { albumId: 12, title: 'Balls to the Wall', artistId: 2 } },
        { body: 'Never out', notable: null },
      ])
      const filtered = music(
        db,
        'alias_notes',
        'wheres[0][column]=notable.title&wheres[0][operator]=like&wheres[0][value]=%25Wall&columns[0]=noteId',
      )
      expectSql(db.name, 'aliases/morphTo filter', filtered)
      expect(plain(await filtered)).to.deep.equal([{ noteId: 2 }])
    })

    it('loadRelations reads keys from rows selected by database name too', async () => {
      const rows = await db.knex('alias_albums').select('AlbumId', 'ArtistId').where('AlbumId', 12)
      const loaded = await loadRelations(db.knex, 'alias_albums', rows, ['artist', 'tracks'], musicMap)
      expect(JSON.parse(JSON.stringify(loaded))).to.deep.equal([
        {
          AlbumId: 12,
          ArtistId: 2,
          artist: { artistId: 2, name: 'Accept' },
          tracks: [{ trackId: 103, name: 'Balls to the Wall', milliseconds: 342562, play_count: 3 }],
        },
      ])
    })
  })
}

describe('column aliases: the explain CLI', () => {
  it('prints the SQL with database columns selected as client names', async () => {
    const lines: string[] = []
    await explainRequest(
      '/alias_albums?wheres[0][column]=artistId&wheres[0][value]=2&columns[0]=title',
      { map: musicMap, client: 'pg', strict: true },
      { out: (text) => lines.push(text), err: () => undefined },
    )
    expect(lines.slice(-4)).to.deep.equal([
      'PostgreSQL:',
      '  SQL:      select "alias_albums"."Title" as "title" from "alias_albums" where (not "alias_albums"."Title" = $1) and ("alias_albums"."ArtistId" = $2)',
      '  Bindings: ["Unreleased",2]',
      '',
    ])
  })
})
