// Type tests, compiled by `npm run typecheck` and never run: aliased columns appear in TableRecord under the
// client's name, and every column of a primary key (one column or several) is non-null.
import { defineRelationMap, type RelationMap, type TableDefinition, type TableRecord } from '../../lib/index.ts'
import type { Expect, Equal } from './expect-type.ts'

const map = defineRelationMap({
  albums: {
    primaryKey: 'AlbumId',
    columns: {
      albumId: { type: 'integer', column: 'AlbumId' },
      title: { type: 'string', column: 'Title' },
      artistId: { type: 'integer', column: 'ArtistId', nullable: false },
      created_at: 'datetime',
    },
    relations: { entries: { type: 'hasMany', table: 'playlist_tracks', foreignKey: 'album_id', localKey: 'AlbumId' } },
  },
  playlist_tracks: {
    primaryKey: ['playlist_id', 'track_id'],
    columns: { playlist_id: 'integer', track_id: 'integer', position: 'integer', album_id: 'integer' },
  },
})

type Album = TableRecord<typeof map, 'albums'>
type _albumColumns = Expect<
  Equal<keyof Album, 'albumId' | 'title' | 'artistId' | 'created_at' | 'entries' | 'entries_count' | 'entries_exists'>
>
type _aliasedKey = Expect<Equal<Album['albumId'], number>>
type _aliasedNullable = Expect<Equal<Album['title'], string | null>>
type _aliasedNotNull = Expect<Equal<Album['artistId'], number>>
type _entries = Expect<Equal<Album['entries'], Array<TableRecord<typeof map, 'playlist_tracks'>> | undefined>>

type Entry = TableRecord<typeof map, 'playlist_tracks'>
type _compositeKey = Expect<Equal<Entry['playlist_id'] | Entry['track_id'], number>>
type _otherColumn = Expect<Equal<Entry['position'], number | null>>

// A composite key is a readonly list of database columns; `column` is a string.
type _primaryKey = Expect<Equal<TableDefinition['primaryKey'], string | readonly string[] | undefined>>
export const typedMap: RelationMap = {
  t: { primaryKey: ['a', 'B'], columns: { a: 'integer', b: { type: 'integer', column: 'B' } } },
}
// @ts-expect-error a column alias is a string
export const badAlias: RelationMap = { t: { columns: { id: { type: 'integer', column: 1 } } } }
