import { decodeComponent } from '../parse/decode-component.ts'
import { topLevelName } from '../parse/parameter-keys.ts'
import type { CursorMeta } from '../read/cursor-paginate.ts'

/** The URLs of the pages beside a keyset page; `null` where `meta` has no cursor. */
export interface CursorLinks {
  next: string | null
  prev: string | null
}

/** The keys a cursor link replaces: the position, and the page keys a cursor cannot be combined with. */
const REPLACED: ReadonlySet<string> = new Set(['cursor', 'page', 'offset'])

/**
 * The URLs of the next and previous pages of a `cursorPaginate` result: the request's URL (`req.url`, path and
 * query) with its `cursor` (and any `page` or `offset`) replaced by the page's `next_cursor` or `prev_cursor`.
 * Every other parameter is kept exactly as the client encoded it, so the next request is bound to the same
 * cursor.
 *
 * @example
 * const page = await cursorPaginate(applyQueryParams(db('posts'), params, relationMap), params, { secret })
 * reply.send({ ...page, links: cursorLinks(request.url, page.meta) })
 * // links.next: '/posts?limit=20&cursor=WzEsIm…'
 */
export function cursorLinks(url: string, meta: CursorMeta): CursorLinks {
  const hash = url.indexOf('#')
  const bare = hash === -1 ? url : url.slice(0, hash)
  const question = bare.indexOf('?')
  const path = question === -1 ? bare : bare.slice(0, question)
  const kept = (question === -1 ? '' : bare.slice(question + 1))
    .split('&')
    .filter((pair) => pair !== '' && !REPLACED.has(topLevelName(decodeComponent(pair.split('=', 1)[0] ?? '') ?? '')))
  const link = (cursor: string | null): string | null =>
    cursor === null ? null : `${path}?${[...kept, `cursor=${cursor}`].join('&')}`
  return { next: link(meta.next_cursor), prev: link(meta.prev_cursor) }
}
