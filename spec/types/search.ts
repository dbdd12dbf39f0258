// Type tests, compiled by `npm run typecheck` and never run: a table's `search` is part of the typed map, and a
// searched table's records are typed as without it.
import { defineRelationMap, type SearchDefinition, type TableRecord } from '../../lib/index.ts'
import type { Expect, Equal } from './expect-type.ts'

const map = defineRelationMap({
  posts: {
    columns: { id: 'integer', title: { type: 'string', nullable: false }, body: 'string' },
    search: { columns: ['title', 'body'], mode: 'fulltext', language: 'english' },
  },
})

type _mode = Expect<Equal<typeof map.posts.search.mode, 'fulltext'>>
type _columns = Expect<Equal<typeof map.posts.search.columns, readonly ['title', 'body']>>
type _record = Expect<Equal<keyof TableRecord<typeof map, 'posts'>, 'id' | 'title' | 'body'>>

// @ts-expect-error a search has a mode, 'contains' or 'fulltext'
export const unknownMode: SearchDefinition = { columns: ['title'], mode: 'prefix' }
// @ts-expect-error and its columns
export const noColumns: SearchDefinition = { mode: 'contains' }
