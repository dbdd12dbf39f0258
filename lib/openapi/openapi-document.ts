import { ensureValidRelationMap } from '../map/validate-relation-map.ts'
import { columnType, primaryKeyColumns, clientColumn } from '../map/columns.ts'
import type { RelationMap } from '../relation-map.ts'
import type { JsonObject, JsonSchema } from './json-schema.ts'
import type { OpenApiOptions, OpenApiResource } from './options.ts'
import { PROBLEM_RESPONSES, PROBLEM_SCHEMAS } from './problem-schemas.ts'
import { queryParameters, QUERY_ENCODING } from './query-parameters.ts'
import { queryProperties } from './query-schema.ts'
import { routeSettings, type RouteSettings } from './route-settings.ts'
import { rowSchema, rowSchemaName } from './row-schema.ts'
import { requestValueSchema } from './value-schemas.ts'

/** An OpenAPI 3.1 document, as `openApiDocument` returns it: plain JSON. */
export interface OpenApiDocument extends JsonObject {
  readonly openapi: '3.1.0'
  readonly info: JsonObject
  /** Each path's operations by method (`get`, `post`). */
  readonly paths: Readonly<Record<string, Readonly<Record<string, JsonObject>>>>
  readonly components: { readonly schemas: Readonly<Record<string, JsonSchema>> }
}

const ITEM_KEYS = ['wheres', 'columns', 'with', 'scopes', 'relations_exists']
const NAME = /^[A-Za-z0-9_-]+$/

const PAGE_META: JsonSchema = {
  type: 'object',
  description: "paginate's metadata; `total` and `last_page` are left out when the route does not count.",
  properties: {
    current_page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1 },
    from: { type: ['integer', 'null'] },
    to: { type: ['integer', 'null'] },
    total: { type: 'integer', minimum: 0 },
    last_page: { type: 'integer', minimum: 1 },
    estimated: { type: 'boolean' },
  },
  required: ['current_page', 'per_page', 'from', 'to'],
  additionalProperties: false,
}

const CURSOR_META: JsonSchema = {
  type: 'object',
  description:
    "cursorPaginate's metadata: send `next_cursor` or `prev_cursor` as `cursor` for the next or previous page.",
  properties: {
    per_page: { type: 'integer', minimum: 1 },
    next_cursor: { type: ['string', 'null'] },
    prev_cursor: { type: ['string', 'null'] },
  },
  required: ['per_page', 'next_cursor', 'prev_cursor'],
  additionalProperties: false,
}

const CURSOR_LINKS: JsonSchema = {
  type: 'object',
  description:
    "cursorLinks' URLs of the next and previous pages (path and query), `null` where the page has no cursor.",
  properties: { next: { type: ['string', 'null'] }, prev: { type: ['string', 'null'] } },
  required: ['next', 'prev'],
  additionalProperties: false,
}

const pascal = (name: string): string =>
  name.replace(/(^|[_-])([a-z0-9])/gi, (_, __: string, letter: string) => letter.toUpperCase())
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

/**
 * An OpenAPI 3.1 document of the routes that serve `relationMap` with `applyQueryParams` (and `paginate`):
 * one `GET` list operation per resource (and the item route and the form-body `POST` when asked for), every
 * query parameter exactly as validation enforces it (the columns a client may filter with their operators
 * and value types, relation paths, `with` values, scopes, sortable orders, `limit` up to `maxLimit`), a JSON
 * Schema of the whole query object (`x-kqp-query-schema`) with its bracket encoding (`x-kqp-encoding`), the
 * row schema of every table, and the problem+json answers (400 with its `code` enum, 413, 431, 503).
 * It is derived from the map and the route's options alone: it cannot drift from what the route accepts.
 *
 * @throws {Error} for a mistake in the relation map, a table not in it, or two resources of one name.
 * @example
 * const document = openApiDocument(relationMap, {
 *   title: 'Shop API',
 *   resources: [{ path: '/products', table: 'products', options: { maxLimit: 100 }, item: true }],
 * })
 * app.get('/openapi.json', () => document)
 */
export function openApiDocument(relationMap: RelationMap, options: OpenApiOptions): OpenApiDocument {
  ensureValidRelationMap(relationMap)
  const schemas: Record<string, JsonSchema> = { ...PROBLEM_SCHEMAS }
  const paths: Record<string, Record<string, JsonObject>> = {}
  const names = new Set<string>()
  const tags: JsonObject[] = []
  const addPath = (path: string, method: string, operation: JsonObject): void => {
    const item = (paths[path] ??= {})
    if (item[method] !== undefined)
      throw new Error(`knex-query-params: openApiDocument: ${method.toUpperCase()} ${path} is described twice`)
    item[method] = operation
  }
  for (const table of Object.keys(relationMap)) schemas[rowSchemaName(table)] = rowSchema(relationMap, table)
  for (const resource of options.resources) {
    const name = resource.name ?? resource.table
    if (!NAME.test(name))
      throw new Error(
        `knex-query-params: openApiDocument: resource name '${name}' must be letters, digits, _ and - (set name)`,
      )
    if (names.has(name))
      throw new Error(`knex-query-params: openApiDocument: two resources are named '${name}' (set name)`)
    names.add(name)
    const settings = routeSettings(resource, options)
    const properties = queryProperties(relationMap, resource.table, settings)
    for (const [key, schema] of Object.entries(properties)) schemas[`${name}.query.${key}`] = schema
    schemas[`${name}.query`] = querySchema(name, Object.keys(properties), settings)
    schemas[`${name}.list`] = listSchema(resource, settings, schemas)
    const tag = resource.tag ?? name
    if (!tags.some((each) => each['name'] === tag))
      tags.push({ name: tag, ...(resource.description === undefined ? {} : { description: resource.description }) })
    const list = listOperation(resource, name, tag, settings, queryParameters(properties, `${name}.query`))
    addPath(resource.path, 'get', list)
    if (resource.formPath !== undefined)
      addPath(resource.formPath, 'post', formOperation(list, name, Object.keys(properties)))
    if (resource.item !== undefined && resource.item !== false) {
      const itemPath = typeof resource.item === 'string' ? resource.item : `${resource.path.replace(/\/$/, '')}/{id}`
      const itemProperties = Object.fromEntries(Object.entries(properties).filter(([key]) => ITEM_KEYS.includes(key)))
      addPath(
        itemPath,
        'get',
        itemOperation(relationMap, resource, name, tag, queryParameters(itemProperties, `${name}.query`)),
      )
    }
  }
  const info = {
    title: options.title ?? 'API',
    version: options.version ?? '1.0.0',
    ...(options.description === undefined ? {} : { description: options.description }),
  }
  return {
    openapi: '3.1.0',
    info,
    ...(options.servers === undefined ? {} : { servers: options.servers.map((server) => ({ ...server })) }),
    tags,
    paths,
    components: { schemas },
  }
}

function querySchema(name: string, keys: readonly string[], settings: RouteSettings): JsonSchema {
  const properties = Object.fromEntries(keys.map((key) => [key, ref(`${name}.query.${key}`)]))
  return {
    type: 'object',
    description:
      'The query object before it is encoded (x-kqp-encoding), with snake_case keys. ' +
      'relationsExists is the same as relations_exists; ' +
      (settings.strict ? 'no other key is accepted.' : "other keys are the application's own and are ignored."),
    properties: { ...properties, relationsExists: ref(`${name}.query.relations_exists`) },
    ...(settings.pagination === 'page-or-cursor'
      ? {
          allOf: [
            { not: { required: ['relations_exists', 'relationsExists'] } },
            { not: { required: ['cursor', 'page'] } },
            { not: { required: ['cursor', 'offset'] } },
          ],
        }
      : { not: { required: ['relations_exists', 'relationsExists'] } }),
    ...(settings.strict ? { additionalProperties: false } : {}),
  }
}

function listSchema(
  resource: OpenApiResource,
  settings: RouteSettings,
  schemas: Record<string, JsonSchema>,
): JsonSchema {
  const data = { type: 'array', items: ref(rowSchemaName(resource.table)) }
  if (settings.pagination === 'none')
    return { type: 'object', properties: { data }, required: ['data'], additionalProperties: false }
  const cursorMeta = (): JsonSchema => {
    schemas['CursorMeta'] = CURSOR_META
    schemas['CursorLinks'] = CURSOR_LINKS
    return ref('CursorMeta')
  }
  if (settings.pagination === 'cursor')
    return {
      type: 'object',
      description: '`links` when the route adds `cursorLinks(url, meta)`.',
      properties: { data, meta: cursorMeta(), links: ref('CursorLinks') },
      required: ['data', 'meta'],
      additionalProperties: false,
    }
  const counted = settings.count !== false
  const metaName = counted ? 'PageMeta' : 'PageMetaUncounted'
  schemas[metaName] = counted
    ? { ...PAGE_META, required: [...(PAGE_META['required'] as string[]), 'total', 'last_page'] }
    : PAGE_META
  if (settings.pagination === 'page-or-cursor')
    return {
      type: 'object',
      description:
        "`meta` comes with `page` (paginate's) or `cursor` (cursorPaginate's); `links` with a cursor page when the " +
        'route adds `cursorLinks(url, meta)`.',
      properties: { data, meta: { anyOf: [ref(metaName), cursorMeta()] }, links: ref('CursorLinks') },
      required: ['data'],
      additionalProperties: false,
    }
  return {
    type: 'object',
    description: '`meta` comes with `page`.',
    properties: { data, meta: ref(metaName) },
    required: ['data'],
    additionalProperties: false,
  }
}

function caps(settings: RouteSettings): JsonObject {
  return {
    maxWheres: settings.maxWheres,
    maxInValues: settings.maxInValues,
    maxValueLength: settings.maxValueLength,
    maxListItems: settings.maxListItems,
    maxLikeWildcards: settings.maxLikeWildcards,
    maxLimit: settings.maxLimit,
    defaultLimit: settings.defaultLimit,
    maxWith: settings.maxWith,
    maxWithDepth: settings.maxWithDepth,
    maxRelationDepth: settings.maxRelationDepth,
    maxRelationFilters: settings.maxRelationFilters,
    maxRelationOrders: settings.maxRelationOrders,
    listedRelationDepth: Math.min(settings.relationPathDepth, settings.maxRelationDepth),
    listedWithDepth: Math.min(settings.relationPathDepth, settings.maxWithDepth),
  }
}

const CONSTRAINTS = [
  'At most maxRelationFilters relation conditions: wheres on a relation path plus relations_exists entries ' +
    '(limit_exceeded).',
  'At most maxRelationOrders orders through a relation (limit_exceeded).',
  'With distinct, orders may only name the distinct or selected columns (invalid_order), ' +
    'columns only sortable ones (not_sortable), and with may name no aggregate (invalid_distinct).',
  'An order by relevance (a fulltext search) needs a search text (invalid_order).',
  'Relation paths are listed up to listedRelationDepth; the server accepts them up to maxRelationDepth ' +
    '(wheres, relations_exists, orders) and maxWithDepth (with).',
]

const CURSOR_CONSTRAINT =
  'A cursor comes from the page before, for the same query; not with page or offset (invalid_cursor).'

function listOperation(
  resource: OpenApiResource,
  name: string,
  tag: string,
  settings: RouteSettings,
  parameters: JsonSchema[],
): JsonObject {
  return {
    operationId: `list${pascal(name)}`,
    tags: [tag],
    summary: `List ${name}`,
    description:
      `Rows of \`${resource.table}\`, filtered, ordered, paged and with relations as the query asks. ` +
      'The query is bracket-encoded (x-kqp-encoding); x-kqp-query-schema is the JSON Schema of the whole query object.',
    parameters,
    responses: {
      '200': { description: 'The rows.', content: { 'application/json': { schema: ref(`${name}.list`) } } },
      ...PROBLEM_RESPONSES,
    },
    'x-kqp-table': resource.table,
    'x-kqp-query-schema': ref(`${name}.query`),
    'x-kqp-encoding': QUERY_ENCODING,
    'x-kqp-caps': caps(settings),
    'x-kqp-constraints':
      settings.pagination === 'cursor' || settings.pagination === 'page-or-cursor'
        ? [...CONSTRAINTS, CURSOR_CONSTRAINT]
        : CONSTRAINTS,
  }
}

function formOperation(list: JsonObject, name: string, keys: readonly string[]): JsonObject {
  const { parameters: _, ...rest } = list
  return {
    ...rest,
    operationId: `search${pascal(name)}`,
    summary: `List ${name} (query in a form body)`,
    requestBody: {
      required: true,
      content: {
        'application/x-www-form-urlencoded': {
          schema: ref(`${name}.query`),
          encoding: Object.fromEntries(keys.map((key) => [key, { style: 'deepObject', explode: true }])),
        },
      },
    },
  }
}

function itemOperation(
  map: RelationMap,
  resource: OpenApiResource,
  name: string,
  tag: string,
  parameters: JsonSchema[],
): JsonObject {
  const key = primaryKeyColumns(map, resource.table)
  const keyName = key.length === 1 && key[0] !== undefined ? clientColumn(map, resource.table, key[0]) : undefined
  const keySpec = keyName === undefined ? undefined : map[resource.table]?.columns[keyName]
  if (keySpec === undefined)
    throw new Error(`knex-query-params: openApiDocument: ${name}.item needs a one-column, allow-listed primary key`)
  const id = columnType(keySpec) === 'integer' ? { type: 'integer', minimum: 1 } : requestValueSchema(keySpec, 1000)
  return {
    operationId: `get${pascal(name)}`,
    tags: [tag],
    summary: `One ${name} row by its key`,
    parameters: [{ name: 'id', in: 'path', required: true, schema: id }, ...parameters],
    responses: {
      '200': {
        description: 'The row.',
        content: {
          'application/json': {
            schema: { type: 'object', properties: { data: ref(rowSchemaName(resource.table)) }, required: ['data'] },
          },
        },
      },
      '404': {
        description: 'No such row.',
        content: { 'application/json': { schema: { type: 'object', properties: { message: { type: 'string' } } } } },
      },
      ...PROBLEM_RESPONSES,
    },
    'x-kqp-table': resource.table,
  }
}
