import Fastify, { type FastifyInstance } from 'fastify'
import type { Knex } from 'knex'
import { serializeRecord, type ApiRecord } from '../../demo/serialize-record.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { handDialects } from './hand-dialect.ts'

const columns = (table: keyof typeof relationMap): string[] =>
  Object.keys(relationMap[table].columns).map((column) => `${table}.${column}`)
const USER_COLUMNS = columns('users')
const POST_COLUMNS = columns('posts')
const TEAM_COLUMNS = columns('teams')

/**
 * The minimal hand-written handler the HTTP figure measures the demo server against: the same framework,
 * one route, the typical request's query written by hand (its filters fixed in code; only `page` and
 * `limit` read from the request), the same two eager-loading queries, the same `{ data, meta }` body and
 * the same row serialisation as the demo, and nothing else (no CORS, no content types, no error mapping).
 */
export function buildHandWrittenServer(db: Knex, dialectName: 'sqlite' | 'postgres'): FastifyInstance {
  const dialect = handDialects[dialectName]
  const app = Fastify({ logger: false })
  app.get('/users', async (request) => {
    const query = request.query as Record<string, string | undefined>
    const page = Number(query.page ?? 1)
    const perPage = Number(query.limit ?? 15)
    const filtered = (): Knex.QueryBuilder =>
      db('users')
        .where((where) => {
          dialect.like(where, 'users.name', 'user 1%')
          where.where('users.is_admin', '=', dialect.boolean(false))
          where.where('users.created_at', '>=', dialect.datetime('2020-01-01T00:00:00.000Z'))
          where.whereExists(function (this: Knex.QueryBuilder) {
            dialect.like(
              this.select(db.raw('1')).from('posts').where('posts.user_id', db.ref('users.id')),
              'posts.title',
              '%o%',
            )
          })
        })
        .whereExists(function (this: Knex.QueryBuilder) {
          this.select(db.raw('1')).from('comments').where('comments.user_id', db.ref('users.id'))
        })
    const pageQuery = filtered().select(USER_COLUMNS)
    dialect.orderBy(pageQuery, 'users.name', 'asc')
    dialect.orderBy(pageQuery, 'users.created_at', 'desc')
    pageQuery
      .orderBy('users.id', 'asc')
      .limit(perPage)
      .offset((page - 1) * perPage)
    const [rows, counted] = (await Promise.all([pageQuery, filtered().count({ total: '*' })])) as [
      ApiRecord[],
      Array<{ total: unknown }>,
    ]

    const posts: ApiRecord[] =
      rows.length === 0
        ? []
        : await db('posts')
            .select(POST_COLUMNS)
            .whereIn(
              'posts.user_id',
              rows.map((row) => row.id as number),
            )
            .orderBy('posts.id')
    const postsByUser = new Map<unknown, ApiRecord[]>()
    for (const post of posts) {
      const list = postsByUser.get(post.user_id)
      if (list === undefined) postsByUser.set(post.user_id, [post])
      else list.push(post)
    }
    const teamIds = [...new Set(rows.map((row) => row.team_id).filter((id) => id !== null))] as number[]
    const teams: ApiRecord[] =
      teamIds.length === 0
        ? []
        : await db('teams').select(TEAM_COLUMNS).whereIn('teams.id', teamIds).orderBy('teams.id')
    const teamsById = new Map(teams.map((team) => [team.id, team]))
    for (const row of rows) {
      row.posts = postsByUser.get(row.id) ?? []
      row.team = teamsById.get(row.team_id) ?? null
    }

    const total = Number(counted[0]?.total ?? 0)
    const offset = (page - 1) * perPage
    return {
      data: rows.map((row) => serializeRecord(row, 'users', relationMap)),
      meta: {
        current_page: page,
        per_page: perPage,
        from: rows.length === 0 ? null : offset + 1,
        to: rows.length === 0 ? null : offset + rows.length,
        total,
        last_page: Math.max(1, Math.ceil(total / perPage)),
      },
    }
  })
  return app
}
