import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Knex } from 'knex'
import {
  applyQueryParams,
  cursorLinks,
  cursorPaginate,
  paginate,
  queryParamsFromRequest,
  type QueryParams,
} from '../lib/index.ts'
import { readAttributes, type DatabaseValue } from './read-attributes.ts'
import { demoRelationMap as relationMap } from './relation-map.ts'
import { WRITE_RULES, type ResourceName } from './resources.ts'
import { databaseTimestamp } from './timestamp.ts'

type ById = FastifyRequest<{ Params: { id: string } }>

/** A row as the library returns it, relations included. */
type ApiRecord = Record<string, unknown>

const KEY = /^[1-9]\d{0,14}$/

/**
 * Registers the REST routes of one resource, the way the reference client calls them:
 * - `GET /<name>`: every query parameter; `{ data }`, or `{ data, meta }` when `page` is given. `limit` without
 *   `page` or `offset` reads a keyset page (cursors signed with `cursorSecret`): `{ data }` with a `Link` header
 *   (`rel="next"`), and with `cursor` `{ data, meta: { per_page, next_cursor, prev_cursor }, links: { next, prev } }`;
 * - `GET /<name>/:id`: `with` and `columns` (and `wheres`, `scopes`…); 404 when missing;
 * - `POST /<name>` (201), `PATCH /<name>/:id`, `DELETE /<name>/:id`: `{ data: record }`. A `DELETE` whose
 *   body carries `deleted_at` (the client's soft delete) sets `deleted_at` to the server's time; one without
 *   it deletes the row.
 * Writes take a JSON object of allow-listed attributes. Records come back as the library returns them: each
 * column as the JSON value of its declared type, the same on every database (no serialisation step here).
 * Every read goes through the demo map's guard, so a soft-deleted row is a 404 and is hidden on every path.
 *
 * @example
 * registerResource(app, db, 'posts', cursorSecret, 1000)
 */
export function registerResource(
  app: FastifyInstance,
  db: Knex,
  name: ResourceName,
  cursorSecret: string,
  timeout?: number,
): void {
  const table = relationMap[name]
  const notFound = (reply: FastifyReply, id: string): FastifyReply =>
    reply.code(404).send({ message: `No ${name} record with id ${id}.` })

  const find = async (id: number, params: QueryParams): Promise<ApiRecord | undefined> => {
    delete params.page
    delete params.limit
    delete params.offset
    const query = applyQueryParams(db(name).where(`${name}.id`, id), params, relationMap, { timeout }).first()
    return (await query) as ApiRecord | undefined
  }

  app.get(`/${name}`, async (request, reply) => {
    const params = queryParamsFromRequest(request)
    const query = applyQueryParams(db(name), params, relationMap, { timeout })
    if (
      params.cursor !== undefined ||
      (params.limit !== undefined && params.page === undefined && params.offset === undefined)
    ) {
      const { data, meta } = await cursorPaginate<ApiRecord>(query, params, { secret: cursorSecret })
      const links = cursorLinks(request.url, meta)
      const header = [
        links.next === null ? [] : [`<${links.next}>; rel="next"`],
        links.prev === null ? [] : [`<${links.prev}>; rel="prev"`],
      ].flat()
      if (header.length > 0) void reply.header('Link', header.join(', '))
      return params.cursor === undefined ? { data } : { data, meta, links }
    }
    if (params.page === undefined) return { data: (await query) as ApiRecord[] }
    const { data, meta } = await paginate<ApiRecord>(query, params)
    return { data, meta }
  })

  app.get(`/${name}/:id`, async (request: ById, reply) => {
    const params = queryParamsFromRequest(request)
    const record = KEY.test(request.params.id) ? await find(Number(request.params.id), params) : undefined
    return record === undefined ? notFound(reply, request.params.id) : { data: record }
  })

  app.post(`/${name}`, async (request, reply) => {
    const params = queryParamsFromRequest(request)
    const attributes = readAttributes(request.body, table, WRITE_RULES[name], 'create')
    const now = databaseTimestamp(new Date())
    const id = await insertRow(db, name, {
      ...WRITE_RULES[name].hiddenDefaults,
      ...attributes,
      created_at: now,
      updated_at: now,
    })
    const record = await find(id, params)
    return reply.code(201).send({ data: record ?? null })
  })

  app.patch(`/${name}/:id`, async (request: ById, reply) => {
    const params = queryParamsFromRequest(request)
    const attributes = readAttributes(request.body, table, WRITE_RULES[name], 'update')
    const id = KEY.test(request.params.id) ? Number(request.params.id) : undefined
    if (id === undefined) return notFound(reply, request.params.id)
    if ((await db(name).where('id', id).whereNull('deleted_at').first('id')) === undefined)
      return notFound(reply, request.params.id)
    await db(name)
      .where('id', id)
      .update({ ...attributes, updated_at: databaseTimestamp(new Date()) })
    const record = await find(id, params)
    return record === undefined ? notFound(reply, request.params.id) : { data: record }
  })

  app.delete(`/${name}/:id`, async (request: ById, reply) => {
    const params = queryParamsFromRequest(request)
    const record = KEY.test(request.params.id) ? await find(Number(request.params.id), params) : undefined
    if (record === undefined) return notFound(reply, request.params.id)
    const rows = db(name).where('id', Number(request.params.id))
    if (softDelete(request.body)) {
      const now = databaseTimestamp(new Date())
      await rows.update({ deleted_at: now, updated_at: now })
    } else {
      await rows.delete()
    }
    return { data: record }
  })
}

/** Whether a `DELETE` body asks for a soft delete: it carries `deleted_at` (JSON, or a form field). */
function softDelete(body: unknown): boolean {
  if (typeof body === 'string') {
    const form = new URLSearchParams(body)
    return form.has('deleted_at') || form.has('deletedAt')
  }
  return typeof body === 'object' && body !== null && ('deleted_at' in body || 'deletedAt' in body)
}

/** Inserts a row and returns its new id. MySQL/MariaDB have no `RETURNING` in knex: the driver answers with the insert id. */
async function insertRow(db: Knex, table: string, row: Record<string, DatabaseValue | undefined>): Promise<number> {
  const insert = db(table).insert(row)
  const [first]: unknown[] = await (db.client.dialect === 'mysql' ? insert : insert.returning('id'))
  const id: unknown = typeof first === 'object' && first !== null && 'id' in first ? first.id : first
  return Number(id)
}
