import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import type { HandDialect } from './hand-dialect.ts'

type ClientWhere = { column: string; operator: string; value: unknown; boolean: 'and' }
type HandWhere = (where: Knex.QueryBuilder, dialect: HandDialect, db: Knex) => void

/** Ten kinds of condition on `users`, cycled through for a request with `n` wheres: one of each type, one through a relation. */
const TEMPLATES: ReadonlyArray<(i: number) => { client: ClientWhere; hand: HandWhere; relation?: true }> = [
  (i) => ({
    client: { column: 'name', operator: 'like', value: `a${i}%`, boolean: 'and' },
    hand: (where, dialect) => dialect.like(where, 'users.name', `a${i}%`),
  }),
  (i) => ({
    client: { column: 'email', operator: '=', value: `user${i}@example.com`, boolean: 'and' },
    hand: (where) => where.where('users.email', '=', `user${i}@example.com`),
  }),
  (i) => ({
    client: { column: 'score', operator: '>', value: i, boolean: 'and' },
    hand: (where) => where.where('users.score', '>', i),
  }),
  (i) => ({
    client: {
      column: 'created_at',
      operator: '>=',
      value: `2021-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`,
      boolean: 'and',
    },
    hand: (where, dialect) =>
      where.where(
        'users.created_at',
        '>=',
        dialect.datetime(`2021-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00.000Z`),
      ),
  }),
  (i) => ({
    client: { column: 'team_id', operator: 'in', value: [i, i + 1, i + 2], boolean: 'and' },
    hand: (where) => where.whereIn('users.team_id', [i, i + 1, i + 2]),
  }),
  () => ({
    client: { column: 'birthday', operator: 'between', value: ['1980-01-01', '2000-12-31'], boolean: 'and' },
    hand: (where) => where.whereBetween('users.birthday', ['1980-01-01', '2000-12-31']),
  }),
  () => ({
    client: { column: 'is_admin', operator: '=', value: true, boolean: 'and' },
    hand: (where, dialect) => where.where('users.is_admin', '=', dialect.boolean(true)),
  }),
  (i) => ({
    client: { column: 'id', operator: '!=', value: i, boolean: 'and' },
    hand: (where) => where.where('users.id', '!=', i),
  }),
  (i) => ({
    relation: true,
    client: { column: 'posts.title', operator: 'like', value: `%t${i}%`, boolean: 'and' },
    hand: (where, dialect, db) =>
      dialect.unpagedFilter === 'in'
        ? where.whereIn('users.id', dialect.like(db('posts').select('posts.user_id'), 'posts.title', `%t${i}%`))
        : where.whereExists(function (this: Knex.QueryBuilder) {
            dialect.like(
              this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')),
              'posts.title',
              `%t${i}%`,
            )
          }),
  }),
  (i) => ({
    client: {
      column: 'updated_at',
      operator: '<',
      value: `2030-02-${String((i % 28) + 1).padStart(2, '0')}T12:00:00.000Z`,
      boolean: 'and',
    },
    hand: (where, dialect) =>
      where.where(
        'users.updated_at',
        '<',
        dialect.datetime(`2030-02-${String((i % 28) + 1).padStart(2, '0')}T12:00:00.000Z`),
      ),
  }),
]

/** A request with `n` wheres (the ten kinds above, cycled), as the client's request object and as hand-written conditions. */
export function manyWheres(n: number): { request: { wheres: ClientWhere[] }; hand: HandWhere[] } {
  const built = Array.from({ length: n }, (_, i) => (TEMPLATES[i % TEMPLATES.length] as (typeof TEMPLATES)[number])(i))
  // By hand, the column tests come before the relation filters, as the library writes an and-run.
  const hand = [
    ...built.filter((where) => where.relation !== true),
    ...built.filter((where) => where.relation === true),
  ]
  return { request: { wheres: built.map((where) => where.client) }, hand: hand.map((where) => where.hand) }
}

const USER_COLUMNS = Object.keys(relationMap.users.columns).map((column) => `users.${column}`)

/** The hand-written query for {@link manyWheres}: the conditions in one group, as the library groups the client's. */
export function handManyWheresQuery(db: Knex, dialect: HandDialect, hand: readonly HandWhere[]): Knex.QueryBuilder {
  return db('users')
    .select(USER_COLUMNS)
    .where((where) => {
      for (const condition of hand) condition(where, dialect, db)
    })
}

/** A request of `n` plain comparisons (`score > i`), and its hand-written chain of plain `where` calls in one group. */
export function plainComparisons(n: number): { request: { wheres: ClientWhere[] }; hand: HandWhere[] } {
  const indexes = Array.from({ length: n }, (_, i) => i)
  return {
    request: { wheres: indexes.map((i) => ({ column: 'score', operator: '>', value: i, boolean: 'and' })) },
    hand: indexes.map((i) => (where: Knex.QueryBuilder) => where.where('users.score', '>', i)),
  }
}
