import { expect } from 'chai'
import type { Knex } from 'knex'
import { createCatalog } from '../../fixtures/catalog/create-catalog.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { demoRelationMap } from '../../demo/relation-map.ts'
import { checkRelationMap } from '../../lib/introspect/check-relation-map.ts'
import { RELATION_MAP_PROBLEM_LEVELS, type RelationMapProblem } from '../../lib/introspect/relation-map-problem.ts'
import type { RelationMap, TableDefinition } from '../../lib/relation-map.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { catalogMap } from './support/catalog-map.ts'
import { dropFreshDatabase, freshDatabase } from './support/fresh-database.ts'

type Found = Pick<RelationMapProblem, 'kind' | 'level' | 'path'>

const found = (problems: readonly RelationMapProblem[]): Found[] =>
  problems.map(({ kind, level, path }) => ({ kind, level, path }))
const error = (kind: Found['kind'], path: string): Found => ({ kind, level: 'error', path })
const warning = (kind: Found['kind'], path: string): Found => ({ kind, level: 'warning', path })

/** `map` with `table`'s definition changed by `change` (a shallow copy; the fixture stays as it is). */
function changed(
  map: RelationMap,
  table: string,
  change: (definition: TableDefinition) => TableDefinition,
): RelationMap {
  const definition = map[table]
  if (definition === undefined) throw new Error(`no ${table} in the map`)
  return { ...map, [table]: change(definition) }
}

const withColumns = (map: RelationMap, table: string, columns: TableDefinition['columns']): RelationMap =>
  changed(map, table, (definition) => ({ ...definition, columns: { ...definition.columns, ...columns } }))

const withRelations = (
  map: RelationMap,
  table: string,
  relations: NonNullable<TableDefinition['relations']>,
): RelationMap =>
  changed(map, table, (definition) => ({ ...definition, relations: { ...definition.relations, ...relations } }))

const demo: RelationMap = relationMap
/** The catalog map's sortable columns that lead no index of the catalog schema (Track.Name has one; playlist.name is second in its unique). */
const UNINDEXED_SORTS: Found[] = [
  warning('sortable_without_index', 'Artist.columns.name'),
  warning('sortable_without_index', 'Album.columns.title'),
  warning('sortable_without_index', 'Employee.columns.lastName'),
  warning('sortable_without_index', 'Employee.columns.firstName'),
  warning('sortable_without_index', 'Employee.columns.birthDate'),
  warning('sortable_without_index', 'Employee.columns.hireDate'),
  warning('sortable_without_index', 'Track.columns.milliseconds'),
  warning('sortable_without_index', 'Track.columns.unitPrice'),
  warning('sortable_without_index', 'Track.columns.explicit'),
  warning('sortable_without_index', 'artist_profile.columns.bio'),
  warning('sortable_without_index', 'app_user.columns.created_at'),
  warning('sortable_without_index', 'app_user.columns.updated_at'),
  warning('sortable_without_index', 'playlist.columns.name'),
  warning('sortable_without_index', 'playlist_track.columns.created_at'),
  warning('sortable_without_index', 'playlist_track.columns.updated_at'),
]

describe('checkRelationMap: problem levels', () => {
  it('errors are what makes requests fail or rows go wrong; warnings what is slower or uncheckable', () => {
    expect(RELATION_MAP_PROBLEM_LEVELS).to.deep.equal({
      missing_table: 'error',
      missing_column: 'error',
      missing_key: 'error',
      key_not_unique: 'error',
      not_null_not_enforced: 'error',
      unique_not_enforced: 'error',
      required_foreign_key_nullable: 'error',
      required_foreign_key_not_enforced: 'error',
      relation_key_type_mismatch: 'error',
      relation_key_unbacked: 'error',
      type_mismatch: 'error',
      single_precision_not_stored: 'error',
      not_null_undeclared: 'warning',
      type_unknown: 'warning',
      single_precision_undeclared: 'warning',
      datetime_storage_mismatch: 'warning',
      unguarded_table: 'warning',
      sortable_without_index: 'warning',
      search_without_index: 'warning',
      sortable_partitioned_index: 'warning',
    })
  })
})

for (const database of testDatabases()) {
  describe(`checkRelationMap (${database.label})`, function () {
    this.timeout(60_000)
    let catalog: TestDatabase
    const check = (map: RelationMap, db: Knex = database.knex): Promise<Found[]> =>
      checkRelationMap(db, map).then(found)

    before(async () => {
      catalog = await freshDatabase(database, 'check')
      await createCatalog(catalog.knex)
    })

    after(async () => {
      await dropFreshDatabase(catalog)
    })

    it(`datetime_storage_mismatch: ${database.name === 'sqlite' ? 'sampled values that do not have the declared storage' : 'never, a date-time type holds instants'}`, async () => {
      await database.knex.schema.createTable('storage_check', (table) => {
        table.integer('id').primary()
        table.datetime('at')
      })
      try {
        // What knex writes for a JS Date: epoch milliseconds on SQLite, a DATETIME/timestamptz elsewhere.
        await database.knex('storage_check').insert([
          { id: 1, at: new Date('2024-03-01T12:00:00Z') },
          { id: 2, at: null },
        ])
        const map = (storage: 'text' | 'iso' | 'epoch_ms'): RelationMap => ({
          storage_check: { columns: { id: 'integer', at: { type: 'datetime', storage } } },
        })
        const fits = await checkRelationMap(database.knex, map('epoch_ms'))
        expect(fits).to.deep.equal([])
        const problems = await checkRelationMap(database.knex, map('text'))
        if (database.name !== 'sqlite') {
          expect(problems).to.deep.equal([])
          return
        }
        expect(found(problems)).to.deep.equal([warning('datetime_storage_mismatch', 'storage_check.columns.at')])
        expect(problems[0]?.message).to.equal(
          "declared storage 'text' (YYYY-MM-DD HH:MM:SS), but 1 of 1 sampled values of storage_check.at are not (found 1 numbers (epoch_ms?)): filters and orders on it would not match PostgreSQL's",
        )
        expect(found(await checkRelationMap(database.knex, map('iso')))).to.deep.equal([
          warning('datetime_storage_mismatch', 'storage_check.columns.at'),
        ])
      } finally {
        await database.knex.schema.dropTable('storage_check')
      }
    })

    it('finds no problem in the fixture map, the demo map (guards included) or the catalog map (aliases, composite key)', async () => {
      expect(await checkRelationMap(database.knex, relationMap)).to.deep.equal([])
      expect(await checkRelationMap(database.knex, demoRelationMap)).to.deep.equal([])
      expect(await checkRelationMap(catalog.knex, catalogMap)).to.deep.equal([])
    })

    it('unguarded_table: with a guard on some tables, each table a relation reaches that has none, unless listed in unguarded', async () => {
      const postsOnly = changed(demo, 'posts', (definition) => ({
        ...definition,
        guard: (query, { table }) => void query.whereNull(`${table}.deleted_at`),
      }))
      const problems = await checkRelationMap(database.knex, postsOnly)
      expect(found(problems)).to.deep.equal(
        ['users', 'teams', 'comments', 'tags', 'images'].map((table) => warning('unguarded_table', `${table}.guard`)),
      )
      expect(problems[0]?.message).to.equal(
        "other tables have a guard but 'users' has none, and teams.relations.owner reaches it: every caller reads all its rows (give it a guard, or list it in the 'unguarded' option if it is shared)",
      )
      const shared = await checkRelationMap(database.knex, postsOnly, { unguarded: ['tags', 'images'] })
      expect(found(shared)).to.deep.equal(
        ['users', 'teams', 'comments'].map((table) => warning('unguarded_table', `${table}.guard`)),
      )
    })

    it('sortable_without_index, only with indexes: true: a sortable column no index nor primary key starts with; sortable: false or an index quiets it', async () => {
      expect(await checkRelationMap(catalog.knex, catalogMap)).to.deep.equal([])
      const problems = await checkRelationMap(catalog.knex, catalogMap, { indexes: true })
      expect(found(problems)).to.deep.equal(UNINDEXED_SORTS)
      expect(problems[0]?.message).to.equal(
        'Artist.Name is sortable, but no index of Artist starts with it: an order on it sorts every matching row; add an index or declare sortable: false',
      )
      const quiet = withColumns(catalogMap, 'Artist', {
        name: { type: 'string', column: 'Name', nullable: false, sortable: false },
      })
      expect(found(await checkRelationMap(catalog.knex, quiet, { indexes: true }))).to.deep.equal(
        UNINDEXED_SORTS.slice(1),
      )
      await catalog.knex.schema.alterTable('Artist', (table) => table.index(['Name', 'ArtistId'], 'artist_name_sort'))
      try {
        expect(found(await checkRelationMap(catalog.knex, catalogMap, { indexes: true }))).to.deep.equal(
          UNINDEXED_SORTS.slice(1),
        )
      } finally {
        await catalog.knex.schema.alterTable('Artist', (table) => table.dropIndex([], 'artist_name_sort'))
      }
    })

    it('missing_table: a table of the map, a pivot table', async () => {
      const map = withRelations({ ...demo, genres: { columns: { id: 'integer' } } }, 'tags', {
        posts: {
          type: 'belongsToMany',
          table: 'posts',
          pivotTable: 'posts_tags',
          foreignPivotKey: 'tag_id',
          relatedPivotKey: 'post_id',
        },
      })
      const problems = await checkRelationMap(database.knex, map)
      expect(found(problems)).to.deep.equal([
        error('missing_table', 'tags.relations.posts.pivotTable'),
        error('missing_table', 'genres'),
      ])
      expect(problems[1]?.message).to.equal(`the database has no table 'genres'`)
    })

    it('missing_column: a declared column, an aliased column by its database column (a right alias passes)', async () => {
      const map = withColumns(demo, 'posts', {
        subtitle: 'string',
        heading: { type: 'string', column: 'headline' },
        views_count: { type: 'integer', column: 'views', nullable: false },
      })
      // users.aggregates.postsViewsSum names the client column views, which this map renames: left out here.
      const users = { ...map.users, columns: map.users?.columns ?? {} }
      delete users.aggregates
      const problems = await checkRelationMap(database.knex, {
        ...map,
        users,
        posts: {
          ...map.posts,
          columns: Object.fromEntries(Object.entries(map.posts?.columns ?? {}).filter(([name]) => name !== 'views')),
        },
      })
      expect(found(problems)).to.deep.equal([
        error('missing_column', 'posts.columns.subtitle'),
        error('missing_column', 'posts.columns.heading'),
      ])
      expect(problems.map((problem) => problem.message)).to.deep.equal([
        `posts has no column 'subtitle'`,
        `posts has no column 'headline'`,
      ])
    })

    it('missing_key: the default primary key id on a table keyed otherwise (the Chinook trap), and a named primaryKey', async () => {
      const trap: RelationMap = {
        Artist: { columns: { id: 'integer', name: { type: 'string', column: 'Name', nullable: false } } },
      }
      const problems = await checkRelationMap(catalog.knex, trap)
      expect(found(problems)).to.deep.equal([
        error('missing_column', 'Artist.columns.id'),
        error('missing_key', 'Artist.primaryKey'),
      ])
      expect(problems[1]?.message).to.equal(
        `Artist has no column 'id' (the default primaryKey); its primary key is ArtistId: set primaryKey to that`,
      )
      const composite = changed(catalogMap, 'playlist_track', (definition) => ({
        ...definition,
        primaryKey: ['playlist_id', 'track_no'],
        columns: { ...definition.columns, track_no: 'integer' },
      }))
      expect(await check(composite, catalog.knex)).to.deep.equal([
        error('missing_column', 'playlist_track.columns.track_no'),
        error('missing_key', 'playlist_track.primaryKey'),
      ])
    })

    it('missing_key: relation keys, pivot keys and morph columns that do not exist', async () => {
      let map = withRelations(demo, 'posts', {
        author: { type: 'belongsTo', table: 'users', foreignKey: 'author_id', required: true },
        comments: { type: 'hasMany', table: 'comments', foreignKey: 'article_id', localKey: 'uuid' },
        tags: {
          type: 'belongsToMany',
          table: 'tags',
          pivotTable: 'post_tag',
          foreignPivotKey: 'article_id',
          relatedPivotKey: 'tag_id',
          relatedKey: 'slug',
        },
        images: { type: 'morphMany', table: 'images', name: 'picturable', morphType: 'Post' },
      })
      map = withRelations(map, 'comments', {
        post: { type: 'belongsTo', table: 'posts', foreignKey: 'post_id', ownerKey: 'uuid' },
      })
      map = withRelations(map, 'images', {
        imageable: { type: 'morphTo', name: 'attachable', types: { User: 'users', Post: 'posts' } },
      })
      expect(await check(map)).to.deep.equal([
        error('missing_key', 'posts.relations.author.foreignKey'),
        error('missing_key', 'posts.relations.comments.foreignKey'),
        error('missing_key', 'posts.relations.comments.localKey'),
        error('missing_key', 'posts.relations.tags.foreignPivotKey'),
        error('missing_key', 'posts.relations.tags.relatedKey'),
        error('missing_key', 'posts.relations.images.name'),
        error('missing_key', 'posts.relations.images.name'),
        error('missing_key', 'comments.relations.post.ownerKey'),
        error('missing_key', 'images.relations.imageable.name'),
        error('missing_key', 'images.relations.imageable.name'),
      ])
    })

    it('key_not_unique: a primaryKey the database does not make unique', async () => {
      const map = changed(catalogMap, 'playlist_track', (definition) => ({ ...definition, primaryKey: 'track_id' }))
      const withoutRelations = changed(map, 'Track', (definition) => ({ ...definition, relations: {} }))
      const playlistOnly = changed(withoutRelations, 'playlist', (definition) => ({
        ...definition,
        relations: { owner: { type: 'belongsTo', table: 'app_user', foreignKey: 'owner_id' } },
      }))
      expect(await check(playlistOnly, catalog.knex)).to.deep.equal([
        error('key_not_unique', 'playlist_track.primaryKey'),
      ])
      const byEmail = changed(catalogMap, 'app_user', (definition) => ({
        ...definition,
        primaryKey: 'email',
        columns: { ...definition.columns, id: { type: 'integer', nullable: false } },
      }))
      expect(await check(byEmail, catalog.knex), 'a unique column may be the key').to.deep.equal([])
    })

    it('not_null_not_enforced and not_null_undeclared: NOT NULL declared on a nullable column (error), and left undeclared (warning)', async () => {
      const map = withColumns(demo, 'users', { birthday: { type: 'date', nullable: false }, name: 'string' })
      const problems = await checkRelationMap(database.knex, map)
      expect(found(problems)).to.deep.equal([
        warning('not_null_undeclared', 'users.columns.name'),
        error('not_null_not_enforced', 'users.columns.birthday'),
      ])
      expect(problems[1]?.message).to.equal(
        'declared nullable: false, but users.birthday may hold NULL: orders would leave its NULL rows out of order',
      )
    })

    it('unique_not_enforced: unique declared on a column without a single-column unique (a two-column unique is not enough)', async () => {
      expect(
        await check(withColumns(demo, 'users', { name: { type: 'string', nullable: false, unique: true } })),
      ).to.deep.equal([error('unique_not_enforced', 'users.columns.name')])
      const twoColumns = withColumns(catalogMap, 'playlist', {
        name: { type: 'string', nullable: false, unique: true },
      })
      expect(await check(twoColumns, catalog.knex)).to.deep.equal([
        error('unique_not_enforced', 'playlist.columns.name'),
      ])
    })

    it('required_foreign_key_nullable and required_foreign_key_not_enforced: a nullable key, a key without a constraint', async () => {
      let map = withRelations(demo, 'users', {
        team: { type: 'belongsTo', table: 'teams', foreignKey: 'team_id', required: true },
      })
      map = withRelations(map, 'images', {
        user: { type: 'belongsTo', table: 'users', foreignKey: 'imageable_id', required: true },
      })
      const problems = await checkRelationMap(database.knex, map)
      expect(found(problems)).to.deep.equal([
        error('required_foreign_key_nullable', 'users.relations.team.required'),
        error('required_foreign_key_not_enforced', 'images.relations.user.required'),
      ])
      expect(problems[1]?.message).to.equal(
        'images.imageable_id → users.id has no foreign-key constraint, so a row may point at no users row: orders through it would drop it',
      )
    })

    it('required_foreign_key_not_enforced: a constraint the database does not enforce', async () => {
      const everyRequired = [
        error('required_foreign_key_not_enforced', 'Album.relations.artist.required'),
        error('required_foreign_key_not_enforced', 'artist_profile.relations.artist.required'),
        error('required_foreign_key_not_enforced', 'playlist_track.relations.playlist.required'),
        error('required_foreign_key_not_enforced', 'playlist_track.relations.track.required'),
      ]
      if (database.name === 'sqlite') {
        await catalog.knex.raw('pragma foreign_keys = off')
        try {
          expect(await check(catalogMap, catalog.knex)).to.deep.equal(everyRequired)
        } finally {
          await catalog.knex.raw('pragma foreign_keys = on')
        }
      } else if (database.name === 'postgres') {
        await catalog.knex.raw('alter table "Album" drop constraint album_artistid_foreign')
        await catalog.knex.raw(
          'alter table "Album" add constraint album_artistid_foreign foreign key ("ArtistId") references "Artist" ("ArtistId") not valid',
        )
        const problems = await checkRelationMap(catalog.knex, catalogMap)
        await catalog.knex.raw('alter table "Album" validate constraint album_artistid_foreign')
        expect(found(problems)).to.deep.equal(everyRequired.slice(0, 1))
        expect(problems[0]?.message).to.equal(
          'Album.ArtistId → Artist.ArtistId has a foreign key (album_artistid_foreign) the database does not enforce, so a row may point at no Artist row: orders through it would drop it',
        )
      } else {
        await catalog.knex.transaction(async (trx) => {
          await trx.raw('set foreign_key_checks = 0')
          const problems = await check(catalogMap, trx)
          await trx.raw('set foreign_key_checks = 1')
          expect(problems).to.deep.equal(everyRequired)
        })
      }
      expect(await check(catalogMap, catalog.knex), 'enforced again').to.deep.equal([])
    })

    it('type_mismatch: integer on a varchar, number on an integer, string on a datetime; integer on a double fits', async () => {
      const map = withColumns(demo, 'posts', {
        title: { type: 'integer', nullable: false },
        views: { type: 'number', nullable: false },
        published_at: 'string',
        rating: 'integer',
      })
      const problems = await checkRelationMap(database.knex, map)
      expect(found(problems)).to.deep.equal([
        error('type_mismatch', 'posts.columns.title'),
        error('type_mismatch', 'posts.columns.published_at'),
        error('type_mismatch', 'posts.columns.views'),
      ])
      const varchar = { sqlite: 'varchar', postgres: 'character varying', mysql: 'varchar' }[database.name]
      expect(problems[0]?.message).to.equal(
        `declared 'integer', but posts.title is ${varchar} (a 'string' column): a client's value would be a database error or compare wrongly`,
      )
    })

    it('type_unknown: a declared column whose database type no map type holds (a time of day) is a warning', async () => {
      const problems = await checkRelationMap(
        catalog.knex,
        withColumns(catalogMap, 'artist_profile', { available_from: 'string' }),
      )
      expect(found(problems)).to.deep.equal([warning('type_unknown', 'artist_profile.columns.available_from')])
      const time = { sqlite: 'time', postgres: 'time without time zone', mysql: 'time' }[database.name]
      expect(problems[0]?.message).to.equal(
        `artist_profile.available_from is ${time}, which no map type holds; 'string' cannot be checked against it`,
      )
    })

    it('json: a json column declared json is clean, declared string a type_mismatch (rows would carry objects)', async () => {
      const clean = await checkRelationMap(catalog.knex, withColumns(catalogMap, 'artist_profile', { links: 'json' }))
      expect(found(clean)).to.deep.equal([])
      const problems = await checkRelationMap(
        catalog.knex,
        withColumns(catalogMap, 'artist_profile', { links: 'string' }),
      )
      expect(found(problems)).to.deep.equal([error('type_mismatch', 'artist_profile.columns.links')])
      expect(problems[0]?.message).to.equal(
        `declared 'string', but artist_profile.links is json (a 'json' column): a client's value would be a database ` +
          'error or compare wrongly',
      )
    })

    it('a broken map is a plain Error naming the path, before the database is read', async () => {
      const broken = { posts: { columns: { id: 'text' } } } as unknown as RelationMap
      const caught = await checkRelationMap(database.knex, broken).catch((thrown: unknown) => thrown)
      expect(caught).to.be.instanceOf(Error)
      expect((caught as Error).message).to.match(/^knex-query-params: posts\.columns\.id: /)
    })
  })
}
