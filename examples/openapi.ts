import { openApiDocument } from 'knex-query-params/openapi'
import { relationMap } from '../fixtures/relation-map.ts'

/**
 * The OpenAPI 3.1 document every example serves at `/openapi.json`: `GET /users` and `GET /posts`, the same
 * query as a form body on `POST /users/search` and `POST /posts/search`, and the keyset pages of
 * `GET /users/feed` and `GET /posts/feed`, as the examples route them.
 */
export const apiDocument = openApiDocument(relationMap, {
  title: 'knex-query-params example',
  resources: (['users', 'posts'] as const).flatMap((table) => [
    { path: `/${table}`, table, formPath: `/${table}/search` },
    { path: `/${table}/feed`, table, name: `${table}Feed`, pagination: 'cursor' as const },
  ]),
})
