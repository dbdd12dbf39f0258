import { expect } from 'chai'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { createMusicTables, dropMusicTables, musicMap } from './support/music-schema.ts'

const entries = (db: TestDatabase, query: string, table = 'alias_playlist_tracks'): Knex.QueryBuilder =>
  applyQueryParams(db.knex(table), parseQueryParams(query), musicMap)

const plain = (result: unknown): Array<Record<string, unknown>> =>
  JSON.parse(JSON.stringify(rowsOf(result))) as Array<Record<string, unknown>>

const keyOf = (row: Record<string, unknown>): string => `${String(row.playlist_id)}/${String(row.track_id)}`

/** Every playlist entry, as `playlist/track`, in key order. */
const ALL = ['1/100', '1/101', '1/102', '1/103', '2/100', '2/101', '2/103', '2/105']

for (const db of testDatabases()) {
  describe(`composite primary keys (${db.name})`, () => {
    before(async () => createMusicTables(db.knex))
    after(async () => dropMusicTables(db.knex))

    it('breaks ties in a paged order with every key column, in the direction of the last order', async () => {
      const asc = entries(db, 'orders[0][column]=position&limit=3')
      expectSql(db.name, 'composite keys/tie-breaker asc', asc)
      expect(plain(await asc).map(keyOf)).to.deep.equal(['1/100', '2/100', '2/105'])
      const desc = entries(db, 'orders[0][column]=position&orders[0][direction]=desc&limit=3')
      expectSql(db.name, 'composite keys/tie-breaker desc', desc)
      expect(plain(await desc).map(keyOf)).to.deep.equal(['1/103', '2/103', '2/101'])
    })

    for (const direction of ['asc', 'desc']) {
      it(`pages through tied positions (${direction}) without losing or repeating a row`, async () => {
        const seen: string[] = []
        for (let page = 1; page <= 4; page++) {
          const rows = plain(
            await entries(db, `orders[0][column]=position&orders[0][direction]=${direction}&page=${page}&limit=3`),
          )
          seen.push(...rows.map(keyOf))
        }
        expect(seen).to.have.length(ALL.length)
        expect([...seen].sort()).to.deep.equal(ALL)
      })
    }

    it('appends only the key columns the order lacks, and nothing once it holds the whole key', async () => {
      const partial = entries(db, 'orders[0][column]=track_id&orders[0][direction]=desc&limit=2')
      expectSql(db.name, 'composite keys/tie-breaker partial', partial)
      expect(plain(await partial).map(keyOf)).to.deep.equal(['2/105', '2/103'])
      const whole = entries(db, 'orders[0][column]=track_id&orders[1][column]=playlist_id&limit=2')
      expectSql(db.name, 'composite keys/whole key ordered', whole)
      expect(plain(await whole).map(keyOf)).to.deep.equal(['1/100', '2/100'])
    })

    it('treats the key as a whole with distinct: the whole key alone breaks ties, part of it does not', async () => {
      const whole = entries(db, 'distinct[0]=track_id&distinct[1]=playlist_id&columns[0]=position&limit=3')
      expectSql(db.name, 'composite keys/distinct whole key', whole)
      expect(plain(await whole)).to.deep.equal([
        { track_id: 100, playlist_id: 1, position: 1 },
        { track_id: 101, playlist_id: 1, position: 2 },
        { track_id: 102, playlist_id: 1, position: 2 },
      ])
      const part = entries(db, 'distinct[0]=playlist_id&columns[0]=position&limit=3')
      expectSql(db.name, 'composite keys/distinct part of key', part)
      expect(plain(await part)).to.deep.equal([
        { playlist_id: 1, position: 1 },
        { playlist_id: 1, position: 2 },
        { playlist_id: 1, position: 3 },
      ])
    })

    it('picks the one row of a hasOne on a composite-key table by the whole key when ordering through it', async () => {
      const query = entries(
        db,
        'columns[0]=trackId&orders[0][column]=firstEntry.position&orders[0][direction]=desc&limit=3',
        'alias_tracks',
      )
      expectSql(db.name, 'composite keys/order by hasOne of composite table', query)
      expect(plain(await query)).to.deep.equal([{ trackId: 103 }, { trackId: 102 }, { trackId: 101 }])
    })

    it('eager-loads rows of a composite-key table ordered by the whole key, and relations from it', async () => {
      const { result, queries } = await countQueries(db.knex, () =>
        entries(
          db,
          'columns[0]=name&with[0]=entries&orders[0][column]=trackId&wheres[0][column]=trackId&wheres[0][operator]=in&wheres[0][value][0]=100&wheres[0][value][1]=101',
          'alias_tracks',
        ),
      )
      expectSql(db.name, 'composite keys/eager hasMany of composite table', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
      expect(queries).to.have.length(2)
      expect(plain(result)).to.deep.equal([
        {
          name: 'Put The Finger On You',
          entries: [
            { playlist_id: 1, track_id: 100, position: 1 },
            { playlist_id: 2, track_id: 100, position: 1 },
          ],
        },
        {
          name: 'Inject The Venom',
          entries: [
            { playlist_id: 1, track_id: 101, position: 2 },
            { playlist_id: 2, track_id: 101, position: 2 },
          ],
        },
      ])
      const from = entries(
        db,
        'columns[0]=position&with[0]=track&with[1]=playlist&wheres[0][column]=playlist_id&wheres[0][value]=2&orders[0][column]=track_id',
      )
      expect(plain(await from)).to.deep.equal([
        {
          position: 1,
          track: { trackId: 100, name: 'Put The Finger On You', milliseconds: 205662, play_count: 3 },
          playlist: { playlistId: 2, name: 'Short' },
        },
        {
          position: 2,
          track: { trackId: 101, name: 'Inject The Venom', milliseconds: 210834, play_count: 3 },
          playlist: { playlistId: 2, name: 'Short' },
        },
        {
          position: 2,
          track: { trackId: 103, name: 'Balls to the Wall', milliseconds: 342562, play_count: 3 },
          playlist: { playlistId: 2, name: 'Short' },
        },
        {
          position: 1,
          track: { trackId: 105, name: 'Single', milliseconds: 180000, play_count: 1 },
          playlist: { playlistId: 2, name: 'Short' },
        },
      ])
    })
  })
}
