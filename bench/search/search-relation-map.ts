import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { SearchDefinition, TableDefinition } from '../../lib/relation-map.ts'

const notNull = { nullable: false } as const

const posts = (search: SearchDefinition): TableDefinition => ({
  columns: {
    id: 'integer',
    user_id: { type: 'integer', ...notNull },
    title: { type: 'string', ...notNull },
    body: { type: 'string', ...notNull },
  },
  relations: { author: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true } },
  search,
})
const users: TableDefinition = { columns: { id: 'integer', name: { type: 'string', ...notNull } } }

/** Figure 14's map with a `contains` search over the post's title and body and its author's name. */
export const containsSearchMap = defineRelationMap({
  users,
  posts: posts({ columns: ['title', 'body', 'author.name'], mode: 'contains' }),
})

/** Figure 14's map with a `fulltext` search over the post's title and body (`simple` configuration, FTS5 table `posts_fts`). */
export const fulltextSearchMap = defineRelationMap({
  users,
  posts: posts({ columns: ['title', 'body'], mode: 'fulltext', language: 'simple', fts: 'posts_fts' }),
})
