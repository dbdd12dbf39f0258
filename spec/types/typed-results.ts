// Type tests, compiled by `npm run typecheck` and never run: the builder's record and result types survive
// applyQueryParams, paginate reads its `data` type from the builder, and loadRelations keeps the row type.
import knex from 'knex'
import {
  applyQueryParams,
  loadRelations,
  paginate,
  parseQueryParams,
  type Paginated,
  type RelationMap,
} from '../../lib/index.ts'
import type { Expect, Equal } from './expect-type.ts'

interface User {
  id: number
  name: string
}

const db = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true })
const map: RelationMap = { users: { columns: { id: 'integer', name: 'string' } } }
const params = parseQueryParams('limit=10')

export async function typedResults(): Promise<void> {
  const users = applyQueryParams(db<User>('users'), params, map)
  const all = await users
  const first = await users.first()
  const untyped = await applyQueryParams(db('users'), params, map)
  const scoped = await applyQueryParams(db<User>('users').where('id', '>', 1).select('id'), params, map)
  type _all = Expect<Equal<typeof all, User[]>>
  type _first = Expect<Equal<typeof first, User | undefined>>
  // biome-ignore lint/suspicious/noExplicitAny: knex types an untyped table's rows as any[]; the test pins that
  type _untyped = Expect<Equal<typeof untyped, any[]>>
  type _scoped = Expect<Equal<typeof scoped, Array<Pick<User, 'id'>>>>

  // @ts-expect-error the record type stays: `email` is not a column of User
  all[0]?.email
  // @ts-expect-error knex's own typing of the record survives too: an insert must be a User
  void applyQueryParams(db<User>('users'), params, map).insert({ title: 'x' })

  const page = await paginate(users, params)
  const untypedPage = await paginate(applyQueryParams(db('users'), params, map), params)
  const declared = await paginate<{ id: number }>(applyQueryParams(db('users'), params, map), params)
  type _page = Expect<Equal<typeof page, Paginated<User>>>
  type _untypedPage = Expect<Equal<typeof untypedPage, Paginated<Record<string, unknown>>>>
  type _declared = Expect<Equal<typeof declared, Paginated<{ id: number }>>>
  // @ts-expect-error a builder that resolves to one row (`.first()`) is not a page of rows
  await paginate(users.first(), params)
  // @ts-expect-error a declared row type must fit the builder's rows
  await paginate<{ title: string }>(users, params)

  const rows: User[] = await db<User>('users').select('id', 'name')
  const loaded = await loadRelations(db, 'users', rows, ['posts'], map)
  type _loadedKeepsRow = Expect<Equal<(typeof loaded)[number]['name'], string>>
  // with a map typed only as RelationMap, a relation is there as `unknown`
  type _unknownRelation = Expect<Equal<(typeof loaded)[number]['posts'], unknown>>
}
