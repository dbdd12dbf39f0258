import type { Knex } from 'knex'
import { defineRelationMap } from '../../../lib/map/define-relation-map.ts'

/**
 * A small music catalogue whose database columns are PascalCase (`ArtistId`, `Title`) while the client
 * names them in camelCase through `column` aliases, plus a playlist table keyed by two columns and notes
 * attached to albums and tracks through an aliased polymorphic pair. Tables are prefixed `alias_` so they
 * live beside the demo schema in each test database.
 */
export const musicMap = defineRelationMap({
  alias_artists: {
    primaryKey: 'ArtistId',
    columns: {
      artistId: { type: 'integer', column: 'ArtistId' },
      name: { type: 'string', column: 'Name', nullable: false },
    },
    relations: { albums: { type: 'hasMany', table: 'alias_albums', foreignKey: 'ArtistId' } },
  },
  alias_albums: {
    primaryKey: 'AlbumId',
    columns: {
      albumId: { type: 'integer', column: 'AlbumId' },
      title: { type: 'string', column: 'Title' },
      artistId: { type: 'integer', column: 'ArtistId', nullable: false },
    },
    relations: {
      artist: { type: 'belongsTo', table: 'alias_artists', foreignKey: 'ArtistId', required: true },
      tracks: { type: 'hasMany', table: 'alias_tracks', foreignKey: 'AlbumId' },
      notes: { type: 'morphMany', table: 'alias_notes', name: 'Notable', morphType: 'Album' },
      note: { type: 'morphOne', table: 'alias_notes', name: 'Notable', morphType: 'Album' },
    },
    guard: (query, { table }) => {
      query.whereNot(`${table}.Title`, 'Unreleased')
    },
  },
  alias_tracks: {
    primaryKey: 'TrackId',
    columns: {
      trackId: { type: 'integer', column: 'TrackId' },
      name: { type: 'string', column: 'Name' },
      milliseconds: { type: 'integer', column: 'Milliseconds' },
      play_count: 'integer',
    },
    relations: {
      album: { type: 'belongsTo', table: 'alias_albums', foreignKey: 'AlbumId' },
      playlists: {
        type: 'belongsToMany',
        table: 'alias_playlists',
        pivotTable: 'alias_playlist_tracks',
        foreignPivotKey: 'track_id',
        relatedPivotKey: 'playlist_id',
      },
      entries: { type: 'hasMany', table: 'alias_playlist_tracks', foreignKey: 'track_id' },
      firstEntry: { type: 'hasOne', table: 'alias_playlist_tracks', foreignKey: 'track_id' },
    },
  },
  alias_playlists: {
    primaryKey: 'PlaylistId',
    columns: { playlistId: { type: 'integer', column: 'PlaylistId' }, name: { type: 'string', column: 'Name' } },
    relations: { entries: { type: 'hasMany', table: 'alias_playlist_tracks', foreignKey: 'playlist_id' } },
  },
  alias_playlist_tracks: {
    primaryKey: ['playlist_id', 'track_id'],
    columns: { playlist_id: 'integer', track_id: 'integer', position: { type: 'integer', nullable: false } },
    relations: {
      track: { type: 'belongsTo', table: 'alias_tracks', foreignKey: 'track_id', required: true },
      playlist: { type: 'belongsTo', table: 'alias_playlists', foreignKey: 'playlist_id', required: true },
    },
  },
  alias_notes: {
    primaryKey: 'NoteId',
    columns: {
      noteId: { type: 'integer', column: 'NoteId' },
      body: { type: 'string', column: 'Body' },
      notableType: { type: 'string', column: 'Notable_type' },
      notableId: { type: 'integer', column: 'Notable_id' },
    },
    relations: { notable: { type: 'morphTo', name: 'Notable', types: { Album: 'alias_albums' } } },
  },
})

const ARTISTS = [
  { ArtistId: 1, Name: 'AC/DC' },
  { ArtistId: 2, Name: 'Accept' },
  { ArtistId: 3, Name: 'Aerosmith' },
]

const ALBUMS = [
  { AlbumId: 10, Title: 'For Those About To Rock', ArtistId: 1 },
  { AlbumId: 11, Title: 'Let There Be Rock', ArtistId: 1 },
  { AlbumId: 12, Title: 'Balls to the Wall', ArtistId: 2 },
  { AlbumId: 13, Title: 'Unreleased', ArtistId: 3 },
]

const TRACKS = [
  { TrackId: 100, AlbumId: 10, Name: 'Put The Finger On You', Milliseconds: 205662, play_count: 3 },
  { TrackId: 101, AlbumId: 10, Name: 'Inject The Venom', Milliseconds: 210834, play_count: 3 },
  { TrackId: 102, AlbumId: 11, Name: 'Go Down', Milliseconds: 331180, play_count: 7 },
  { TrackId: 103, AlbumId: 12, Name: 'Balls to the Wall', Milliseconds: 342562, play_count: 3 },
  { TrackId: 104, AlbumId: 13, Name: 'Demo', Milliseconds: 1000, play_count: 0 },
  { TrackId: 105, AlbumId: null, Name: 'Single', Milliseconds: 180000, play_count: 1 },
]

const PLAYLISTS = [
  { PlaylistId: 1, Name: 'Rock' },
  { PlaylistId: 2, Name: 'Short' },
]

/** Positions repeat across playlists (and twice within playlist 2), so an order by position alone has ties. */
const PLAYLIST_TRACKS = [
  { playlist_id: 1, track_id: 100, position: 1 },
  { playlist_id: 1, track_id: 101, position: 2 },
  { playlist_id: 1, track_id: 102, position: 2 },
  { playlist_id: 1, track_id: 103, position: 3 },
  { playlist_id: 2, track_id: 100, position: 1 },
  { playlist_id: 2, track_id: 105, position: 1 },
  { playlist_id: 2, track_id: 103, position: 2 },
  { playlist_id: 2, track_id: 101, position: 2 },
]

const NOTES = [
  { NoteId: 1, Body: 'Live favourite', Notable_type: 'Album', Notable_id: 10 },
  { NoteId: 2, Body: 'Remastered', Notable_type: 'Album', Notable_id: 12 },
  { NoteId: 3, Body: 'Never out', Notable_type: 'Album', Notable_id: 13 },
]

const TABLES = [
  'alias_notes',
  'alias_playlist_tracks',
  'alias_playlists',
  'alias_tracks',
  'alias_albums',
  'alias_artists',
]

/** (Re)creates the music tables in `knex`'s database and fills them. */
export async function createMusicTables(knex: Knex): Promise<void> {
  await dropMusicTables(knex)
  await knex.schema.createTable('alias_artists', (table) => {
    table.integer('ArtistId').primary()
    table.string('Name', 100).notNullable()
  })
  await knex.schema.createTable('alias_albums', (table) => {
    table.integer('AlbumId').primary()
    table.string('Title', 100).nullable()
    table.integer('ArtistId').notNullable().references('ArtistId').inTable('alias_artists')
  })
  await knex.schema.createTable('alias_tracks', (table) => {
    table.integer('TrackId').primary()
    table.integer('AlbumId').nullable().references('AlbumId').inTable('alias_albums')
    table.string('Name', 100).nullable()
    table.integer('Milliseconds').nullable()
    table.integer('play_count').nullable()
  })
  await knex.schema.createTable('alias_playlists', (table) => {
    table.integer('PlaylistId').primary()
    table.string('Name', 100).nullable()
  })
  await knex.schema.createTable('alias_playlist_tracks', (table) => {
    table.integer('playlist_id').notNullable().references('PlaylistId').inTable('alias_playlists')
    table.integer('track_id').notNullable().references('TrackId').inTable('alias_tracks')
    table.integer('position').notNullable()
    table.primary(['playlist_id', 'track_id'])
  })
  await knex.schema.createTable('alias_notes', (table) => {
    table.integer('NoteId').primary()
    table.string('Body', 100).nullable()
    table.string('Notable_type', 20).nullable()
    table.integer('Notable_id').nullable()
  })
  await knex('alias_artists').insert(ARTISTS)
  await knex('alias_albums').insert(ALBUMS)
  await knex('alias_tracks').insert(TRACKS)
  await knex('alias_playlists').insert(PLAYLISTS)
  await knex('alias_playlist_tracks').insert(PLAYLIST_TRACKS)
  await knex('alias_notes').insert(NOTES)
}

/** Drops the tables of {@link createMusicTables}, if they exist. */
export async function dropMusicTables(knex: Knex): Promise<void> {
  for (const table of TABLES) await knex.schema.dropTableIfExists(table)
}
