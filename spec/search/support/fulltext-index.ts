import { FULLTEXT_SQL } from '../../../lib/dialect/fulltext-sql.ts'
import type { TestDatabase } from '../../support/databases.ts'

/** The full-text declaration of posts that {@link createFulltextIndex} creates the index for. */
export const POSTS_FULLTEXT = {
  columns: ['title', 'body'],
  mode: 'fulltext',
  language: 'english',
  fts: 'posts_fts',
} as const

/**
 * Creates the index of {@link POSTS_FULLTEXT} on the test database's posts, with the statement the docs and
 * `checkRelationMap` give (`FULLTEXT_SQL[…].index`); on SQLite the FTS5 table, filled from posts.
 */
export async function createFulltextIndex(db: TestDatabase): Promise<void> {
  const options = { language: POSTS_FULLTEXT.language, fts: POSTS_FULLTEXT.fts, key: 'id' }
  await db.knex.raw(FULLTEXT_SQL[db.name].index('posts', POSTS_FULLTEXT.columns, options))
  if (db.name === 'sqlite') await db.knex.raw(`insert into posts_fts(posts_fts) values ('rebuild')`)
}

/** Drops what {@link createFulltextIndex} created, so the schema other specs read is the migrations' again. */
export async function dropFulltextIndex(db: TestDatabase): Promise<void> {
  if (db.name === 'sqlite') await db.knex.raw('drop table if exists posts_fts')
  else if (db.name === 'postgres') await db.knex.raw('drop index if exists posts_search')
  else await db.knex.raw('drop index posts_search on posts')
}
