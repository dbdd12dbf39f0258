import { createCatalog } from '../../../fixtures/catalog/create-catalog.ts'
import type { RelationMap } from '../../../lib/relation-map.ts'
import type { TestDatabase } from '../../support/databases.ts'
import { dropFreshDatabase, freshDatabase } from './fresh-database.ts'

/** The catalog schema (fixtures/catalog) as the generator maps it by default (`naming: 'as-is'`). */
export const CATALOG_MAP: RelationMap = {
  Album: {
    primaryKey: 'AlbumId',
    columns: { AlbumId: 'integer', Title: { type: 'string', nullable: false }, ArtistId: { type: 'integer', nullable: false } },
    relations: {
      Artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'ArtistId', required: true },
      Tracks: { type: 'hasMany', table: 'Track', foreignKey: 'AlbumId' },
    },
  },
  Artist: {
    primaryKey: 'ArtistId',
    columns: { ArtistId: 'integer', Name: { type: 'string', nullable: false } },
    relations: {
      Albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' },
      artist_profile: { type: 'hasOne', table: 'artist_profile', foreignKey: 'artist_id' },
    },
  },
  Employee: {
    primaryKey: 'EmployeeId',
    columns: {
      EmployeeId: 'integer',
      LastName: { type: 'string', nullable: false },
      FirstName: { type: 'string', nullable: false },
      Email: { type: 'string', unique: true },
      ReportsTo: 'integer',
      BirthDate: 'date',
      HireDate: 'datetime',
    },
    relations: {
      Employee: { type: 'belongsTo', table: 'Employee', foreignKey: 'ReportsTo' },
      Employees: { type: 'hasMany', table: 'Employee', foreignKey: 'ReportsTo' },
    },
  },
  Track: {
    primaryKey: 'TrackId',
    columns: {
      TrackId: 'integer',
      Name: { type: 'string', nullable: false },
      AlbumId: 'integer',
      Milliseconds: { type: 'integer', nullable: false },
      UnitPrice: { type: 'number', nullable: false },
      Explicit: { type: 'boolean', nullable: false },
    },
    relations: {
      Album: { type: 'belongsTo', table: 'Album', foreignKey: 'AlbumId' },
      playlists: { type: 'belongsToMany', table: 'playlist', pivotTable: 'playlist_track', foreignPivotKey: 'track_id', relatedPivotKey: 'playlist_id' },
    },
  },
  app_user: {
    columns: {
      id: 'integer',
      email: { type: 'string', nullable: false, unique: true },
      created_at: { type: 'datetime', nullable: false },
      updated_at: { type: 'datetime', nullable: false },
    },
    relations: { playlists: { type: 'hasMany', table: 'playlist', foreignKey: 'owner_id' } },
  },
  artist_profile: {
    columns: { id: 'integer', artist_id: { type: 'integer', nullable: false, unique: true }, bio: 'string' },
    relations: { artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'artist_id', required: true } },
  },
  playlist: {
    columns: { id: 'integer', name: { type: 'string', nullable: false }, owner_id: 'integer' },
    relations: {
      owner: { type: 'belongsTo', table: 'app_user', foreignKey: 'owner_id' },
      Tracks: { type: 'belongsToMany', table: 'Track', pivotTable: 'playlist_track', foreignPivotKey: 'playlist_id', relatedPivotKey: 'track_id' },
    },
  },
}

/** The same schema with `naming: 'camel'` and `exposePivots: true`. */
export const CATALOG_CAMEL_MAP: RelationMap = {
  Album: {
    primaryKey: 'AlbumId',
    columns: {
      albumId: { type: 'integer', column: 'AlbumId' },
      title: { type: 'string', column: 'Title', nullable: false },
      artistId: { type: 'integer', column: 'ArtistId', nullable: false },
    },
    relations: {
      artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'ArtistId', required: true },
      tracks: { type: 'hasMany', table: 'Track', foreignKey: 'AlbumId' },
    },
  },
  Artist: {
    primaryKey: 'ArtistId',
    columns: { artistId: { type: 'integer', column: 'ArtistId' }, name: { type: 'string', column: 'Name', nullable: false } },
    relations: {
      albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' },
      artistProfile: { type: 'hasOne', table: 'artist_profile', foreignKey: 'artist_id' },
    },
  },
  Employee: {
    primaryKey: 'EmployeeId',
    columns: {
      employeeId: { type: 'integer', column: 'EmployeeId' },
      lastName: { type: 'string', column: 'LastName', nullable: false },
      firstName: { type: 'string', column: 'FirstName', nullable: false },
      email: { type: 'string', column: 'Email', unique: true },
      reportsTo: { type: 'integer', column: 'ReportsTo' },
      birthDate: { type: 'date', column: 'BirthDate' },
      hireDate: { type: 'datetime', column: 'HireDate' },
    },
    relations: {
      employee: { type: 'belongsTo', table: 'Employee', foreignKey: 'ReportsTo' },
      employees: { type: 'hasMany', table: 'Employee', foreignKey: 'ReportsTo' },
    },
  },
  Track: {
    primaryKey: 'TrackId',
    columns: {
      trackId: { type: 'integer', column: 'TrackId' },
      name: { type: 'string', column: 'Name', nullable: false },
      albumId: { type: 'integer', column: 'AlbumId' },
      milliseconds: { type: 'integer', column: 'Milliseconds', nullable: false },
      unitPrice: { type: 'number', column: 'UnitPrice', nullable: false },
      explicit: { type: 'boolean', column: 'Explicit', nullable: false },
    },
    relations: {
      album: { type: 'belongsTo', table: 'Album', foreignKey: 'AlbumId' },
      playlistTracks: { type: 'hasMany', table: 'playlist_track', foreignKey: 'track_id' },
      playlists: { type: 'belongsToMany', table: 'playlist', pivotTable: 'playlist_track', foreignPivotKey: 'track_id', relatedPivotKey: 'playlist_id' },
    },
  },
  app_user: {
    columns: {
      id: 'integer',
      email: { type: 'string', nullable: false, unique: true },
      createdAt: { type: 'datetime', column: 'created_at', nullable: false },
      updatedAt: { type: 'datetime', column: 'updated_at', nullable: false },
    },
    relations: { playlists: { type: 'hasMany', table: 'playlist', foreignKey: 'owner_id' } },
  },
  artist_profile: {
    columns: { id: 'integer', artistId: { type: 'integer', column: 'artist_id', nullable: false, unique: true }, bio: 'string' },
    relations: { artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'artist_id', required: true } },
  },
  playlist: {
    columns: { id: 'integer', name: { type: 'string', nullable: false }, ownerId: { type: 'integer', column: 'owner_id' } },
    relations: {
      owner: { type: 'belongsTo', table: 'app_user', foreignKey: 'owner_id' },
      playlistTracks: { type: 'hasMany', table: 'playlist_track', foreignKey: 'playlist_id' },
      tracks: { type: 'belongsToMany', table: 'Track', pivotTable: 'playlist_track', foreignPivotKey: 'playlist_id', relatedPivotKey: 'track_id' },
    },
  },
  playlist_track: {
    primaryKey: ['playlist_id', 'track_id'],
    columns: {
      playlistId: { type: 'integer', column: 'playlist_id', nullable: false },
      trackId: { type: 'integer', column: 'track_id', nullable: false },
      createdAt: { type: 'datetime', column: 'created_at', nullable: false },
      updatedAt: { type: 'datetime', column: 'updated_at', nullable: false },
    },
    relations: {
      playlist: { type: 'belongsTo', table: 'playlist', foreignKey: 'playlist_id', required: true },
      track: { type: 'belongsTo', table: 'Track', foreignKey: 'track_id', required: true },
    },
  },
}

/** Runs `body` on a new database of `database`'s engine holding the catalog schema (created, not seeded), then drops it. */
export async function withCatalog(database: TestDatabase, body: (catalog: TestDatabase) => Promise<void>): Promise<void> {
  const catalog = await freshDatabase(database, 'catalog')
  try {
    await createCatalog(catalog.knex)
    await body(catalog)
  } finally {
    await dropFreshDatabase(catalog)
  }
}
