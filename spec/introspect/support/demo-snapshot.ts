import {
  expectedColumn,
  expectedForeignKey,
  type ColumnKind,
  type FixtureDialect,
} from '../../../fixtures/catalog/catalog-snapshot.ts'
import type { SchemaColumn, SchemaSnapshot } from '../../../lib/dialect/schema/schema-snapshot.ts'

/** The demo tables (`migrations/`) exactly as `readSchema` reads them on `dialect`, sorted by name. */
export function demoSnapshot(dialect: FixtureDialect): SchemaSnapshot {
  const column = (name: string, kind: ColumnKind, nullable = false): SchemaColumn =>
    expectedColumn(dialect, name, kind, nullable)
  const fk = (table: string, from: string, to: string): ReturnType<typeof expectedForeignKey> =>
    expectedForeignKey(dialect, table, from, to, 'id')
  const stamps = [column('created_at', 'datetime'), column('updated_at', 'datetime')]
  const deletedAt = column('deleted_at', 'timestamp', true)
  return {
    tables: [
      {
        name: 'comments',
        columns: [
          column('id', 'increments'),
          column('post_id', 'integer'),
          column('user_id', 'integer'),
          column('body', 'text'),
          ...stamps,
          deletedAt,
        ],
        primaryKey: ['id'],
        uniques: [],
        indexes: [['id'], ['post_id'], ['user_id']],
        foreignKeys: [fk('comments', 'post_id', 'posts'), fk('comments', 'user_id', 'users')],
      },
      {
        name: 'images',
        columns: [
          column('id', 'increments'),
          column('imageable_type', 'string'),
          column('imageable_id', 'integer'),
          column('url', 'string'),
          ...stamps,
          deletedAt,
        ],
        primaryKey: ['id'],
        uniques: [],
        indexes: [['id'], ['imageable_type', 'imageable_id']],
        foreignKeys: [],
      },
      {
        name: 'post_tag',
        columns: [column('post_id', 'integer'), column('tag_id', 'integer')],
        primaryKey: ['post_id', 'tag_id'],
        uniques: [],
        indexes: [['post_id', 'tag_id'], ['tag_id']],
        foreignKeys: [fk('post_tag', 'post_id', 'posts'), fk('post_tag', 'tag_id', 'tags')],
      },
      {
        name: 'posts',
        columns: [
          column('id', 'increments'),
          column('user_id', 'integer'),
          column('title', 'string'),
          column('body', 'text', true),
          column('published', 'boolean'),
          column('published_at', 'datetime', true),
          column('views', 'integer'),
          column('rating', 'double', true),
          ...stamps,
          deletedAt,
        ],
        primaryKey: ['id'],
        uniques: [],
        indexes: [['id'], ['user_id']],
        foreignKeys: [fk('posts', 'user_id', 'users')],
      },
      {
        name: 'tags',
        columns: [column('id', 'increments'), column('name', 'string'), ...stamps, deletedAt],
        primaryKey: ['id'],
        uniques: [],
        indexes: [['id']],
        foreignKeys: [],
      },
      {
        name: 'teams',
        columns: [
          column('id', 'increments'),
          column('name', 'string'),
          column('owner_id', 'integer', true),
          ...stamps,
          deletedAt,
        ],
        primaryKey: ['id'],
        uniques: [],
        indexes: [['id'], ['owner_id']],
        foreignKeys: [],
      },
      {
        name: 'users',
        columns: [
          column('id', 'increments'),
          column('team_id', 'integer', true),
          column('name', 'string'),
          column('email', 'string'),
          column('password', 'string'),
          column('is_admin', 'boolean'),
          column('birthday', 'date', true),
          column('score', 'double', true),
          ...stamps,
          deletedAt,
        ],
        primaryKey: ['id'],
        uniques: [['email']],
        indexes: [['email'], ['id'], ['team_id']],
        foreignKeys: [fk('users', 'team_id', 'teams')],
      },
    ],
  }
}
