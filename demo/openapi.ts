import { openApiDocument, type OpenApiDocument } from '../lib/openapi.ts'
import { demoRelationMap } from './relation-map.ts'
import { RESOURCES } from './resources.ts'

/**
 * The demo API's OpenAPI 3.1 document: one list route per resource (`GET /<name>`, paged with `page` or, with
 * `cursor`, by keyset: `pagination: 'page-or-cursor'`) and its item route (`GET /<name>/{id}`), with the demo's
 * options (the library's defaults). The guard is not in
 * it: a document says what a client may send, not which rows it sees.
 *
 * @example
 * app.get('/openapi.json', async () => demoOpenApiDocument())
 */
export function demoOpenApiDocument(): OpenApiDocument {
  return openApiDocument(demoRelationMap, {
    title: 'knex-query-params demo API',
    version: '1.0.0',
    description:
      'The demo domain (users, teams, posts, comments, tags, images) served with applyQueryParams, paginate and ' +
      'cursorPaginate.',
    resources: RESOURCES.map((name) => ({ path: `/${name}`, table: name, item: true, pagination: 'page-or-cursor' })),
  })
}
