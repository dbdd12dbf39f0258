import type { RelationMap } from '../../lib/relation-map.ts'

const notNull = { nullable: false } as const

/**
 * The relation map of figure 6's schema, declared as its owner would: which columns are NOT NULL or
 * unique, and which belongsTo relations are `required` (NOT NULL foreign key with a constraint).
 */
export const scaleRelationMap = {
  teams: {
    columns: {
      id: 'integer',
      name: { type: 'string', ...notNull, unique: true },
      created_at: { type: 'datetime', ...notNull },
    },
    relations: { members: { type: 'hasMany', table: 'users', foreignKey: 'team_id' } },
  },
  users: {
    columns: {
      id: 'integer',
      team_id: { type: 'integer', ...notNull },
      name: { type: 'string', ...notNull },
      email: { type: 'string', ...notNull, unique: true },
      created_at: { type: 'datetime', ...notNull },
    },
    relations: {
      team: { type: 'belongsTo', table: 'teams', foreignKey: 'team_id', required: true },
      posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
    },
  },
  posts: {
    columns: {
      id: 'integer',
      user_id: { type: 'integer', ...notNull },
      title: { type: 'string', ...notNull },
      kind: { type: 'string', ...notNull },
      published_at: 'datetime',
      views: { type: 'integer', ...notNull },
      created_at: { type: 'datetime', ...notNull },
    },
    relations: {
      author: { type: 'belongsTo', table: 'users', foreignKey: 'user_id', required: true },
      tags: {
        type: 'belongsToMany',
        table: 'tags',
        pivotTable: 'post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
      comments: { type: 'hasMany', table: 'comments', foreignKey: 'post_id' },
    },
  },
  tags: {
    columns: { id: 'integer', name: { type: 'string', ...notNull, unique: true } },
    relations: {
      posts: {
        type: 'belongsToMany',
        table: 'posts',
        pivotTable: 'post_tag',
        foreignPivotKey: 'tag_id',
        relatedPivotKey: 'post_id',
      },
    },
  },
  comments: {
    columns: {
      id: 'integer',
      post_id: { type: 'integer', ...notNull },
      body: { type: 'string', ...notNull },
      created_at: { type: 'datetime', ...notNull },
    },
    relations: { post: { type: 'belongsTo', table: 'posts', foreignKey: 'post_id', required: true } },
  },
} satisfies RelationMap
