import type { ApplyOptions, ParseOptions } from '../options.ts'

/**
 * The options a route passes to `applyQueryParams`, `parseQueryParams` and `paginate`, as far as they change
 * what a client may send; the guard's `context`, `timeout`, `signal` and `dialect` change nothing a document says.
 */
export type OpenApiRouteOptions = Omit<ApplyOptions, 'context' | 'timeout' | 'signal' | 'dialect' | 'table'> &
  ParseOptions & {
    /** `paginate`'s `count`: with `false` the page's `meta` has no `total` or `last_page`. Default `true`. */
    count?: boolean | 'estimated'
  }

/** How a list route pages: see {@link OpenApiResource.pagination}. */
export type OpenApiPagination = 'page' | 'cursor' | 'page-or-cursor' | 'none'

/**
 * One resource of the document: a list route (`GET path`) over `table` of the relation map.
 *
 * @example
 * { path: '/posts', table: 'posts', options: { maxLimit: 100 }, item: true, formPath: '/posts/search' }
 */
export interface OpenApiResource {
  /** The list route's path, e.g. `/posts`. */
  path: string
  /** The base table, a table of the relation map. */
  table: string
  /** The name of the operations and schemas (`listPosts`, `posts.query`); default the table. `[A-Za-z0-9_-]`. */
  name?: string
  /** The options the route passes to `parseQueryParams`, `applyQueryParams` and `paginate`. */
  options?: OpenApiRouteOptions
  /**
   * How the route answers: `'page'` (default) `{ data }`, or `{ data, meta }` when `page` is given (`paginate`);
   * `'cursor'` `{ data, meta: { per_page, next_cursor, prev_cursor } }` with the `cursor` parameter (`cursorPaginate`);
   * `'page-or-cursor'` both: `page` and `offset` answered by `paginate`, `cursor` by `cursorPaginate` (as the demo
   * does); `'none'` `{ data }` with `limit` and `offset` only. With a cursor, the body may also carry `links`
   * (`cursorLinks`).
   */
  pagination?: OpenApiPagination
  /** Also describe `GET <path>/{id}` (`with`, `columns`, `wheres`, `scopes`); `true` for `<path>/{id}`, or its path. */
  item?: boolean | string
  /** Also describe `POST <formPath>` taking the same query as an `application/x-www-form-urlencoded` body. */
  formPath?: string
  /** A tag for the resource's operations; default the name. */
  tag?: string
  /** A description of the resource. */
  description?: string
}

/**
 * Options of `openApiDocument`.
 *
 * @example
 * openApiDocument(relationMap, { title: 'Shop API', resources: [{ path: '/products', table: 'products' }] })
 */
export interface OpenApiOptions {
  /** The resources to describe, one list operation each. */
  resources: readonly OpenApiResource[]
  /** `info.title`; default `API`. */
  title?: string
  /** `info.version`; default `1.0.0`. */
  version?: string
  /** `info.description`. */
  description?: string
  /** `servers`, e.g. `[{ url: 'http://localhost:3000' }]`. */
  servers?: ReadonlyArray<{ url: string; description?: string }>
  /**
   * Deepest relation path (`posts.comments.body` is 2) the document lists for `wheres`, `relations_exists`
   * and `orders`; default 2, at most the route's `maxRelationDepth`. The server accepts paths up to that cap:
   * the number listed is in each operation's `x-kqp-caps`. `with` paths are listed up to `maxWithDepth`.
   */
  relationPathDepth?: number
}
