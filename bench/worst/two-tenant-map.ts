import type { Knex } from 'knex'
import { defineRelationMap, type GuardInfo } from '../../lib/index.ts'

/** Every guarded table of the two-tenant app: the caller's tenant, rows not soft-deleted. */
const own = (query: Knex.QueryBuilder, { table, context }: GuardInfo<{ tenant: number }>): void => {
  query.where(`${table}.tenant_id`, context.tenant).whereNull(`${table}.deleted_at`)
}

/**
 * The map of issue 35's two-tenant app (`issue-figures.ts`, `sqlite-fan-out.ts`): users with a declared `max`,
 * posts with comments, tags on a guarded pivot, global topics on a pivot the map does not guard (`slug` unique), a
 * morphOne cover; a guard on every table but topics.
 */
export const twoTenantMap = defineRelationMap({
  users: {
    columns: { id: 'integer', email: { type: 'string', nullable: false, unique: true }, score: 'number' },
    relations: { posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' } },
    aggregates: { postsViewsMax: { relation: 'posts', fn: 'max', column: 'views' } },
    guard: own,
  },
  posts: {
    columns: { id: 'integer', user_id: { type: 'integer', nullable: false }, title: 'string', views: 'integer' },
    relations: {
      author: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true },
      comments: { type: 'hasMany', table: 'comments', foreignKey: 'post_id' },
      tags: {
        type: 'belongsToMany',
        table: 'tags',
        pivotTable: 'post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
      topics: {
        type: 'belongsToMany',
        table: 'topics',
        pivotTable: 'post_topic',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'topic_id',
      },
      cover: { type: 'morphOne', table: 'images', name: 'imageable', morphType: 'Post' },
    },
    guard: own,
  },
  comments: { columns: { id: 'integer', post_id: 'integer', body: 'string' }, guard: own },
  tags: {
    columns: { id: 'integer', name: 'string' },
    relations: {
      posts: {
        type: 'belongsToMany',
        table: 'posts',
        pivotTable: 'post_tag',
        foreignPivotKey: 'tag_id',
        relatedPivotKey: 'post_id',
      },
    },
    guard: own,
  },
  post_tag: { columns: { post_id: 'integer', tag_id: 'integer' }, primaryKey: ['post_id', 'tag_id'], guard: own },
  topics: { columns: { id: 'integer', slug: { type: 'string', unique: true, nullable: false } } },
  images: {
    columns: { id: 'integer', imageable_type: 'string', imageable_id: 'integer', url: 'string' },
    guard: own,
  },
})
