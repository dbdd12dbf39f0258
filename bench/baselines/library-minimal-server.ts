import Fastify, { type FastifyInstance } from 'fastify'
import type { Knex } from 'knex'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, paginate, queryParamsFromRequest } from '../../lib/index.ts'

/**
 * The library in a handler as minimal as the hand-written one (no CORS, content types or error
 * mapping): what the library itself costs per request, apart from what the demo app adds around it.
 */
export function buildLibraryMinimalServer(db: Knex): FastifyInstance {
  const app = Fastify({ logger: false })
  app.get('/users', async (request) => {
    const params = queryParamsFromRequest(request)
    // The rows already carry JSON values (each column as its declared type): no serialisation step.
    return paginate(applyQueryParams(db('users'), params, relationMap), params)
  })
  return app
}
