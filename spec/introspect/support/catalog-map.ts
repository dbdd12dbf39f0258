import { defineRelationMap } from '../../../lib/map/define-relation-map.ts'

/**
 * A hand-written relation map of the catalog schema (`fixtures/catalog/`) that fits it exactly: the PascalCase
 * part under camelCase client names (`artistId` → `ArtistId`), keys not named `id`, the composite key of
 * `playlist_track`, the self-reference of `Employee`. Secrets (`app_user.password_hash`, `api_token`) and the
 * time-of-day column `artist_profile.available_from` are left out.
 */
export const catalogMap = defineRelationMap({
  Artist: {
    primaryKey: 'ArtistId',
    columns: {
      artistId: { type: 'integer', column: 'ArtistId' },
      name: { type: 'string', column: 'Name', nullable: false },
    },
    relations: {
      albums: { type: 'hasMany', table: 'Album', foreignKey: 'ArtistId' },
      profile: { type: 'hasOne', table: 'artist_profile', foreignKey: 'artist_id' },
    },
  },
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
      manager: { type: 'belongsTo', table: 'Employee', foreignKey: 'ReportsTo' },
      reports: { type: 'hasMany', table: 'Employee', foreignKey: 'ReportsTo' },
    },
  },
  Track: {
    primaryKey: 'TrackId',
    columns: {
      trackId: { type: 'integer', column: 'TrackId' },
      name: { type: 'string', column: 'Name', nullable: false },
      albumId: { type: 'integer', column: 'AlbumId' },
      milliseconds: { type: 'integer', column: 'Milliseconds', nullable: false },
      unitPrice: { type: 'decimal', column: 'UnitPrice', nullable: false },
      explicit: { type: 'boolean', column: 'Explicit', nullable: false },
    },
    relations: {
      album: { type: 'belongsTo', table: 'Album', foreignKey: 'AlbumId' },
      playlists: {
        type: 'belongsToMany',
        table: 'playlist',
        pivotTable: 'playlist_track',
        foreignPivotKey: 'track_id',
        relatedPivotKey: 'playlist_id',
      },
    },
  },
  artist_profile: {
    columns: {
      id: 'integer',
      artist_id: { type: 'integer', nullable: false, unique: true },
      bio: 'string',
      links: 'json',
    },
    relations: { artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'artist_id', required: true } },
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
  playlist: {
    columns: { id: 'integer', name: { type: 'string', nullable: false }, owner_id: 'integer' },
    relations: {
      owner: { type: 'belongsTo', table: 'app_user', foreignKey: 'owner_id' },
      tracks: {
        type: 'belongsToMany',
        table: 'Track',
        pivotTable: 'playlist_track',
        foreignPivotKey: 'playlist_id',
        relatedPivotKey: 'track_id',
      },
    },
  },
  playlist_track: {
    primaryKey: ['playlist_id', 'track_id'],
    columns: {
      playlist_id: { type: 'integer', nullable: false },
      track_id: { type: 'integer', nullable: false },
      created_at: { type: 'datetime', nullable: false },
      updated_at: { type: 'datetime', nullable: false },
    },
    relations: {
      playlist: { type: 'belongsTo', table: 'playlist', foreignKey: 'playlist_id', required: true },
      track: { type: 'belongsTo', table: 'Track', foreignKey: 'track_id', required: true },
    },
  },
})
