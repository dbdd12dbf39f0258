import { relationMap } from '../fixtures/relation-map.ts'
import type { Guard, TableDefinition } from '../lib/index.ts'

/** The demo's guard: a soft-deleted row (a `deleted_at` set by the client's `DELETE`) is hidden on every path. */
export const notDeleted: Guard = (query, { table }) => {
  query.whereNull(`${table}.deleted_at`)
}

type Guarded<Map> = { [Table in keyof Map]: Map[Table] & Pick<TableDefinition, 'guard'> }

/** The demo's posts with a search box: `GET /posts?search=knex%20tips` finds the words in a title, body or author's name. */
const posts = {
  ...relationMap.posts,
  search: { columns: ['title', 'body', 'author.name'], mode: 'contains' },
} satisfies TableDefinition
const searchable = { ...relationMap, posts }

/**
 * The demo domain's relation map (`fixtures/relation-map.ts`), its posts searchable, with the {@link notDeleted}
 * guard on every table whose rows the client deletes: soft-deleted rows disappear from lists, single reads,
 * relation filters, `relationsExists`, relation orders, eager loading, counts and the search's author names.
 * `post_tag` is not a resource.
 *
 * @example
 * applyQueryParams(db('posts'), params, demoRelationMap) // where ("posts"."deleted_at" is null) …
 */
export const demoRelationMap: Guarded<typeof searchable> = Object.fromEntries(
  Object.entries(searchable).map(([table, definition]) => [table, { ...definition, guard: notDeleted }]),
) as Guarded<typeof searchable>
