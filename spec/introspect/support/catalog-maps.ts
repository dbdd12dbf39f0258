import { createCatalog } from '../../../fixtures/catalog/create-catalog.ts'
import type { RelationMap } from '../../../lib/relation-map.ts'
import type { TestDatabase } from '../../support/databases.ts'
import { catalogMap } from './catalog-map.ts'
import { dropFreshDatabase, freshDatabase } from './fresh-database.ts'
import { addRelation, aliasColumn, editableCopy, renameRelation, type EditableMap } from './map-differences.ts'

/** The catalog schema (fixtures/catalog) as the generator maps it by default (`naming: 'as-is'`). */
export const CATALOG_MAP: RelationMap = {
  Album: {
    primaryKey: 'AlbumId',
    columns: {
      AlbumId: 'integer',
      Title: { type: 'string', nullable: false },
      ArtistId: { type: 'integer', nullable: false },
    },
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
      Parent: { type: 'belongsTo', table: 'Employee', foreignKey: 'ReportsTo' },
      Children: { type: 'hasMany', table: 'Employee', foreignKey: 'ReportsTo' },
    },
  },
  Track: {
    primaryKey: 'TrackId',
    columns: {
      TrackId: 'integer',
      Name: { type: 'string', nullable: false },
      AlbumId: 'integer',
      Milliseconds: { type: 'integer', nullable: false },
      UnitPrice: { type: 'decimal', nullable: false },
      Explicit: { type: 'boolean', nullable: false },
    },
    relations: {
      Album: { type: 'belongsTo', table: 'Album', foreignKey: 'AlbumId' },
      playlists: {
        type: 'belongsToMany',
        table: 'playlist',
        pivotTable: 'playlist_track',
        foreignPivotKey: 'track_id',
        relatedPivotKey: 'playlist_id',
      },
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
    columns: {
      id: 'integer',
      artist_id: { type: 'integer', nullable: false, unique: true },
      bio: 'string',
      links: 'json',
    },
    relations: { artist: { type: 'belongsTo', table: 'Artist', foreignKey: 'artist_id', required: true } },
  },
  playlist: {
    columns: { id: 'integer', name: { type: 'string', nullable: false }, owner_id: 'integer' },
    relations: {
      owner: { type: 'belongsTo', table: 'app_user', foreignKey: 'owner_id' },
      Tracks: {
        type: 'belongsToMany',
        table: 'Track',
        pivotTable: 'playlist_track',
        foreignPivotKey: 'playlist_id',
        relatedPivotKey: 'track_id',
      },
    },
  },
}

/**
 * The same schema with `naming: 'camel'` and `exposePivots: true`: the hand-written map of the catalog
 * (`catalogMap`, which fits the schema exactly) but for each difference listed here with its reason.
 */
export function catalogCamelMap(): EditableMap {
  const tables = editableCopy(catalogMap)
  // The hand-written map keeps the snake_case part under its database names; camel aliases every such column.
  const snakeColumns: Array<[string, string, string]> = [
    ['artist_profile', 'artist_id', 'artistId'],
    ['app_user', 'created_at', 'createdAt'],
    ['app_user', 'updated_at', 'updatedAt'],
    ['playlist', 'owner_id', 'ownerId'],
    ['playlist_track', 'playlist_id', 'playlistId'],
    ['playlist_track', 'track_id', 'trackId'],
    ['playlist_track', 'created_at', 'createdAt'],
    ['playlist_track', 'updated_at', 'updatedAt'],
  ]
  for (const [table, column, clientName] of snakeColumns) aliasColumn(tables, table, column, clientName)
  // Names the hand-written map chose by meaning; the generator names a hasOne after its table, a belongsTo
  // and a self-reference whose key names nothing else (ReportsTo) parent, its inverse children.
  renameRelation(tables, 'Artist', 'profile', 'artistProfile')
  renameRelation(tables, 'Employee', 'manager', 'parent')
  renameRelation(tables, 'Employee', 'reports', 'children')
  // An exposed pivot is a table with two belongsTo, so its parents also get the inverse hasMany.
  addRelation(tables, 'Track', 'playlistTracks', { type: 'hasMany', table: 'playlist_track', foreignKey: 'track_id' })
  addRelation(tables, 'playlist', 'playlistTracks', {
    type: 'hasMany',
    table: 'playlist_track',
    foreignKey: 'playlist_id',
  })
  return tables
}

/** Runs `body` on a new database of `database`'s engine holding the catalog schema (created, not seeded), then drops it. */
export async function withCatalog(
  database: TestDatabase,
  body: (catalog: TestDatabase) => Promise<void>,
): Promise<void> {
  const catalog = await freshDatabase(database, 'catalog')
  try {
    await createCatalog(catalog.knex)
    await body(catalog)
  } finally {
    await dropFreshDatabase(catalog)
  }
}
