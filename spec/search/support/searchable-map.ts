import { relationMap } from '../../../fixtures/relation-map.ts'
import { defineRelationMap } from '../../../lib/map/define-relation-map.ts'
import type { Guard } from '../../../lib/relation-map.ts'

/** The demo map with a `contains` search on posts over its own text and two relations' names. */
export const containsMap = defineRelationMap({
  ...relationMap,
  posts: { ...relationMap.posts, search: { columns: ['title', 'body', 'author.name', 'tags.name'], mode: 'contains' } },
})

/** Users other than Alice (id 1): a guard the search's relation filter through `author` must meet. */
const notAlice: Guard = (query, { table }) => {
  query.whereNot(`${table}.id`, 1)
}

/** {@link containsMap} with the {@link notAlice} guard on users. */
export const guardedContainsMap = defineRelationMap({
  ...containsMap,
  users: { ...containsMap.users, guard: notAlice },
})
