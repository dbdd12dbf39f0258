// Compiled by every TypeScript consumer: a wider slice of the public API than the quick start, typed as a
// consumer would write it. Nothing here runs; the compiler checks it against the published declarations.
import type { Knex } from 'knex'
import {
  OPERATORS,
  QueryParamsError,
  applyQueryParams,
  columnType,
  countQuery,
  loadRelations,
  paginate,
  parseQueryParams,
  type ApplyOptions,
  type ParseOptions,
  type QueryParams,
  type RelationMap,
} from 'knex-query-params'
import { errorResponse, queryParamsFromRequest } from 'knex-query-params/http'
import { checkRelationMap, type RelationMapProblem } from 'knex-query-params/introspect'
import { openApiDocument, type OpenApiDocument, type OpenApiOptions } from 'knex-query-params/openapi'

export const relationMap: RelationMap = {
  users: {
    columns: { id: 'integer', name: 'string', created_at: columnType('datetime') },
    relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
  },
  posts: { columns: { id: 'integer', user_id: 'integer', title: 'string' } },
}

const parseOptions: ParseOptions = { strict: true, maxWheres: 10 }
const applyOptions: ApplyOptions = { maxLimit: 100 }

export async function listUsers(db: Knex, url: string): Promise<{ status: number; body: unknown }> {
  try {
    const params: QueryParams = parseQueryParams(url, parseOptions)
    const builder = applyQueryParams(db('users'), params, relationMap, applyOptions)
    const page = await paginate(builder, { page: params.page, limit: params.limit })
    const total: unknown = await countQuery(builder)
    return { status: 200, body: { page, total } }
  } catch (error) {
    if (error instanceof QueryParamsError) {
      const code: string = error.code
      const status: number = error.status
      return { status, body: { code, param: error.param, allowed: error.allowed } }
    }
    const response = errorResponse(error)
    if (response === undefined) throw error
    return { status: response.status, body: response.body }
  }
}

export function fromRequest(request: { url: string; method: string; headers: Record<string, string> }): QueryParams {
  return queryParamsFromRequest(request)
}

export async function withPosts(db: Knex, rows: Array<Record<string, unknown>>): Promise<unknown[]> {
  return loadRelations(db, 'users', rows, ['posts'], relationMap)
}

export const operators: readonly string[] = OPERATORS

export async function problemsOf(db: Knex): Promise<RelationMapProblem[]> {
  return checkRelationMap(db, relationMap)
}

export function apiDocument(): OpenApiDocument {
  const options: OpenApiOptions = {
    title: 'Users',
    resources: [{ path: '/users', table: 'users', options: { maxLimit: 100 }, item: true }],
  }
  return openApiDocument(relationMap, options)
}
