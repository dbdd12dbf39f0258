/**
 * `knex-query-params/openapi`: an OpenAPI 3.1 document of the routes that serve a relation map, derived from
 * the map and the routes' options, so it says exactly what the routes accept and answer.
 *
 * @example
 * import { openApiDocument } from 'knex-query-params/openapi'
 * const document = openApiDocument(relationMap, { resources: [{ path: '/users', table: 'users', item: true }] })
 */
export { openApiDocument } from './openapi/openapi-document.ts'
export type { OpenApiDocument } from './openapi/openapi-document.ts'
export type { OpenApiOptions, OpenApiPagination, OpenApiResource, OpenApiRouteOptions } from './openapi/options.ts'
export type { JsonObject, JsonSchema, JsonValue } from './openapi/json-schema.ts'
export { QUERY_PARAMS_ERROR_CODES } from './openapi/error-codes.ts'
