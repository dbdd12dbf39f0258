// Type tests, compiled by `npm run typecheck` and never run: defineRelationMap keeps the literal map, rejects
// what the types can see, and TableRecord / LoadedRelations describe the rows of a literal map.
import knex from 'knex'
import {
  applyQueryParams,
  defineRelationMap,
  loadRelations,
  parseQueryParams,
  type ColumnRecord,
  type RelationMap,
  type TableRecord,
} from '../../lib/index.ts'
import type { relationMap } from '../../fixtures/relation-map.ts'
import type { Expect, Equal } from './expect-type.ts'

const map = defineRelationMap({
  users: {
    columns: {
      id: 'integer',
      name: 'string',
      email: { type: 'string', nullable: false, unique: true },
      is_admin: 'boolean',
      born: 'date',
    },
    relations: {
      team: { type: 'belongsTo', table: 'teams', foreignKey: 'team_id', required: true },
      posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
      avatar: { type: 'morphOne', table: 'images', name: 'imageable', morphType: 'User' },
    },
    scopes: {
      admins: (query) => {
        query.where('users.is_admin', true)
      },
    },
  },
  teams: { columns: { id: 'integer', name: 'string' } },
  posts: {
    primaryKey: 'uuid',
    columns: { uuid: 'string', user_id: 'integer', score: { type: 'number' }, published_at: 'datetime' },
    relations: {
      author: { type: 'belongsTo', table: 'users', foreignKey: 'user_id' },
      tags: {
        type: 'belongsToMany',
        table: 'tags',
        pivotTable: 'post_tag',
        foreignPivotKey: 'post_uuid',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  tags: { columns: { id: 'integer', name: 'string' } },
  images: {
    columns: { id: 'integer', url: 'string' },
    relations: { imageable: { type: 'morphTo', name: 'imageable', types: { User: 'users', Post: 'posts' } } },
  },
})

// The literal types are kept, and the map is still a RelationMap.
type _literalType = Expect<Equal<(typeof map)['users']['relations']['posts']['type'], 'hasMany'>>
type _literalColumn = Expect<Equal<(typeof map)['posts']['columns']['uuid'], 'string'>>
export const asRelationMap: RelationMap = map

// Columns: the primary key and `nullable: false` columns are never null; the others may be.
type User = TableRecord<typeof map, 'users'>
type _userColumns = Expect<
  Equal<
    ColumnRecord<typeof map, 'users'>,
    { id: number; name: string | null; email: string; is_admin: boolean | null; born: string | null }
  >
>
type _postColumns = Expect<
  Equal<
    ColumnRecord<typeof map, 'posts'>,
    { uuid: string; user_id: number | null; score: number | null; published_at: string | null }
  >
>

// Relations: optional; to-many an array, to-one a record or null, morphTo any of its tables.
type _posts = Expect<Equal<User['posts'], TableRecord<typeof map, 'posts'>[] | undefined>>
type _team = Expect<Equal<User['team'], TableRecord<typeof map, 'teams'> | null | undefined>>
type _avatar = Expect<Equal<User['avatar'], TableRecord<typeof map, 'images'> | null | undefined>>
type _imageable = Expect<
  Equal<
    TableRecord<typeof map, 'images'>['imageable'],
    TableRecord<typeof map, 'users'> | TableRecord<typeof map, 'posts'> | null | undefined
  >
>
type _nested = Expect<Equal<NonNullable<User['posts']>[number]['tags'], TableRecord<typeof map, 'tags'>[] | undefined>>
type _cyclic = Expect<Equal<NonNullable<NonNullable<User['posts']>[number]['author']>['email'], string>>

// Typed results with a literal map: the record type of the builder.
const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
export async function literalMapResults(): Promise<void> {
  const users = await applyQueryParams(db<User>('users'), parseQueryParams('with[0]=posts.tags'), map)
  const titles: Array<string | undefined> = users.flatMap((user) => user.posts ?? []).map((post) => post.uuid)
  void titles
  // @ts-expect-error `password` is not an allow-listed column, so no record has it
  users[0]?.password

  const rows = await db<{ id: number; name: string }>('users').select('id', 'name')
  const loaded = await loadRelations(db, 'users', rows, ['posts', 'team'], map)
  type _loadedPosts = Expect<Equal<(typeof loaded)[number]['posts'], TableRecord<typeof map, 'posts'>[] | undefined>>
  type _loadedRow = Expect<Equal<(typeof loaded)[number]['name'], string>>
  // @ts-expect-error `comments` is not a relation of users in this map
  loaded[0]?.comments
  // @ts-expect-error the table must be one of the map's
  await loadRelations(db, 'user', rows, ['posts'], map)
}

// What the types can reject before the runtime check does.
defineRelationMap({
  users: {
    columns: { id: 'integer' },
    // @ts-expect-error 'hasmany' is not a relation type
    relations: { posts: { type: 'hasmany', table: 'posts', foreignKey: 'user_id' } },
  },
})
defineRelationMap({
  users: {
    columns: { id: 'integer' },
    // @ts-expect-error a hasMany relation needs its foreignKey
    relations: { posts: { type: 'hasMany', table: 'posts' } },
  },
})
defineRelationMap({
  // @ts-expect-error 'text' is not a column type
  users: { columns: { id: 'integer', name: 'text' } },
})
defineRelationMap({
  // @ts-expect-error nullable is a boolean
  users: { columns: { id: 'integer', name: { type: 'string', nullable: 'no' } } },
})
// Per-column capabilities: typed keys, operators from the client's list only.
const capable = defineRelationMap({
  users: {
    columns: {
      id: 'integer',
      body: { type: 'string', sortable: false, filterable: true, operators: ['=', 'in', 'like'] },
    },
  },
})
type _capabilityOperators = Expect<
  Equal<(typeof capable)['users']['columns']['body']['operators'], readonly ['=', 'in', 'like']>
>
type _capabilityRecord = Expect<Equal<ColumnRecord<typeof capable, 'users'>, { id: number; body: string | null }>>
defineRelationMap({
  // @ts-expect-error 'ilike' is not an operator
  users: { columns: { id: 'integer', body: { type: 'string', operators: ['=', 'ilike'] } } },
})
defineRelationMap({
  // @ts-expect-error sortable is a boolean
  users: { columns: { id: 'integer', body: { type: 'string', sortable: 'no' } } },
})
defineRelationMap({
  // @ts-expect-error a scope is a function
  users: { columns: { id: 'integer' }, scopes: { admins: 'is_admin = 1' } },
})

// The fixture map (every relation type, cycles users → posts → author → …) resolves to any depth.
type FixtureUser = TableRecord<typeof relationMap, 'users'>
type DeepOwner = NonNullable<
  NonNullable<NonNullable<NonNullable<FixtureUser['posts']>[number]['comments']>[number]['author']>['team']
>['owner']
type _deep = Expect<Equal<NonNullable<DeepOwner>['email'], string>>
type FixtureImageable = NonNullable<NonNullable<FixtureUser['images']>[number]['imageable']>
type _fixtureMorphTo = Expect<
  Equal<FixtureImageable, TableRecord<typeof relationMap, 'users'> | TableRecord<typeof relationMap, 'posts'>>
>
// a morphTo record is one of its tables: narrow it by a column only one of them has
export function titleOf(record: FixtureImageable): string | null | undefined {
  return 'title' in record ? record.title : record.name
}
