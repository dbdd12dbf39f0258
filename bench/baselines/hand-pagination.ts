import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import type { HandDialect } from './hand-dialect.ts'

const USER_COLUMNS = Object.keys(relationMap.users.columns).map((column) => `users.${column}`)

type Row = Record<string, unknown>

/** One page and its Laravel-style metadata, as a hand-written handler computes them. */
export interface HandPage {
  data: Row[]
  meta: {
    current_page: number
    per_page: number
    total: number
    last_page: number
    from: number | null
    to: number | null
  }
}

/**
 * A page of users written by hand: the page query and `count(*)` of the same filter, sent together,
 * then the metadata. `titlePattern` filters by a post title (correlated `EXISTS`), or not at all.
 */
export async function handPage(
  db: Knex,
  dialect: HandDialect,
  page: number,
  perPage: number,
  titlePattern?: string,
): Promise<HandPage> {
  const filtered = (): Knex.QueryBuilder => {
    const query = db('users')
    if (titlePattern === undefined) return query
    return query.whereExists(function (this: Knex.QueryBuilder) {
      dialect.like(
        this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')),
        'posts.title',
        titlePattern,
      )
    })
  }
  const offset = (page - 1) * perPage
  const [data, counted] = await Promise.all([
    filtered().select(USER_COLUMNS).orderBy('users.id', 'asc').limit(perPage).offset(offset) as Promise<Row[]>,
    filtered().count({ total: '*' }) as Promise<Array<{ total: number | string }>>,
  ])
  const total = Number(counted[0]?.total ?? 0)
  return {
    data,
    meta: {
      current_page: page,
      per_page: perPage,
      total,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      from: data.length === 0 ? null : offset + 1,
      to: data.length === 0 ? null : offset + data.length,
    },
  }
}
