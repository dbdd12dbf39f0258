import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Knex } from 'knex'
import { registerApiDocs } from './api-docs.ts'
import { registerContentTypes } from './content-types.ts'
import { registerCors } from './cors.ts'
import { registerErrorHandlers } from './error-handlers.ts'
import { OneLineRequestLog } from './request-log.ts'
import { answerClientError } from './too-large.ts'
import { registerResource } from './resource-routes.ts'
import { RESOURCES } from './resources.ts'

/** Options of {@link buildApp}. */
export interface AppOptions {
  /** The database, already migrated (and seeded). The app never closes it. */
  db: Knex
  /** Fastify's logger option; default `false` (tests). The server passes `true`. */
  logger?: FastifyServerOptions['logger']
  /** `Access-Control-Allow-Origin`; default `*`. */
  corsOrigin?: string
  /**
   * The secret the list routes sign their cursors with (see `cursorPaginate`); default a random one per process,
   * so cursors do not outlive a restart. The server passes `CURSOR_SECRET`.
   */
  cursorSecret?: string
  /**
   * Milliseconds each list or record read may take on the database (`timeout` of `applyQueryParams`); default none
   * (tests). The server passes 1,000: a slower read is stopped (503), or refused before it runs on SQLite where it could
   * not be stopped (400 `too_expensive`).
   */
  timeout?: number
}

/**
 * Builds the demo API on Fastify: REST routes for users, teams, posts, comments, tags and images, reading
 * the reference client's query params with `queryParamsFromRequest`, applying them with
 * `applyQueryParams`, paginating with `paginate`, and answering errors with `errorResponse`.
 *
 * @example
 * const app = buildApp({ db })
 * await app.listen({ port: 0 })
 */
export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    logController: new OneLineRequestLog(),
    clientErrorHandler: answerClientError,
  })
  registerCors(app, options.corsOrigin ?? '*')
  registerContentTypes(app)
  registerErrorHandlers(app)
  app.get('/', async () => ({ resources: RESOURCES.map((name) => `/${name}`) }))
  const cursorSecret = options.cursorSecret ?? randomBytes(32).toString('base64url')
  registerApiDocs(app)
  for (const name of RESOURCES) registerResource(app, options.db, name, cursorSecret, options.timeout)
  return app
}
