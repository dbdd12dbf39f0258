import { openApiDocument } from 'knex-query-params/openapi'
import { relationMap } from '../fixtures/relation-map.ts'

/**
 * The OpenAPI 3.1 document every example serves at `/openapi.json`: `GET /users` and `GET /posts`, and the same
 * query as a form body on `POST /users/search` and `POST /posts/search`, as the examples route them.
 */
export const apiDocument = openApiDocument(relationMap, {
  title: 'knex-query-params example',
  resources: (['users', 'posts'] as const).map((table) => ({ path: `/${table}`, table, formPath: `/${table}/search` })),
})
