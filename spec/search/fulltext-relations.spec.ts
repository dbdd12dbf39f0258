import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams } from '../../lib/apply/apply-query-params.ts'
import { FULLTEXT_SQL } from '../../lib/dialect/fulltext-sql.ts'
import { paginate } from '../../lib/index.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { sortedIdsOf } from '../support/apply-query.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'
import { explainPlan } from '../plans/support/explain-plan.ts'
import { createFulltextIndex, dropFulltextIndex, POSTS_FULLTEXT } from './support/fulltext-index.ts'

const USERS_FULLTEXT = { columns: ['name'], mode: 'fulltext', language: 'simple', fts: 'users_fts' } as const

/** Posts searched by their own text and their author's name, each on its own table's full-text index. */
const relatedMap = defineRelationMap({
  ...relationMap,
  users: { ...relationMap.users, search: USERS_FULLTEXT },
  posts: { ...relationMap.posts, search: { ...POSTS_FULLTEXT, columns: ['title', 'body', 'author.name'] } },
})

/** {@link relatedMap} with a guard on users (not user 1), which the relation filter of the search must meet. */
const guardedMap = defineRelationMap({
  ...relatedMap,
  users: {
    ...relatedMap.users,
    guard: (query, { table }) => {
      query.whereNot(`${table}.id`, 1)
    },
  },
})

async function createUsersIndex(db: TestDatabase): Promise<void> {
  const options = { language: USERS_FULLTEXT.language, fts: USERS_FULLTEXT.fts, key: 'id' }
  await db.knex.raw(FULLTEXT_SQL[db.name].index('users', USERS_FULLTEXT.columns, options))
  if (db.name === 'sqlite') await db.knex.raw(`insert into users_fts(users_fts) values ('rebuild')`)
}

async function dropUsersIndex(db: TestDatabase): Promise<void> {
  if (db.name === 'sqlite') await db.knex.raw('drop table if exists users_fts')
  else if (db.name === 'postgres') await db.knex.raw('drop index if exists users_search')
  else await db.knex.raw('drop index users_search on users')
}

/** The oracle: posts whose title or body holds the word, or whose author (meeting `seen`) is named so. */
async function expectedIds(db: TestDatabase, word: string, seen: (userId: number) => boolean): Promise<number[]> {
  const users = (await db.knex('users').select('id', 'name')) as Array<{ id: number; name: string }>
  const named = new Set(users.filter((user) => user.name.toLowerCase() === word && seen(user.id)).map((u) => u.id))
  const posts = (await db.knex('posts').select('id', 'user_id', 'title', 'body')) as Array<{
    id: number
    user_id: number
    title: string | null
    body: string | null
  }>
  const holds = (text: string | null): boolean =>
    (text ?? '')
      .toLowerCase()
      .split(/[^a-z]+/)
      .includes(word)
  return posts
    .filter((post) => holds(post.title) || holds(post.body) || named.has(Number(post.user_id)))
    .map((post) => Number(post.id))
    .sort((a, b) => a - b)
}

for (const db of testDatabases()) {
  describe(`search: fulltext through relations (${db.name})`, () => {
    before(async () => {
      await createFulltextIndex(db)
      await createUsersIndex(db)
    })
    after(async () => {
      await dropFulltextIndex(db)
      await dropUsersIndex(db)
    })

    it("finds a row by its own index or by a related row's own full-text index (author.name)", async () => {
      const query = applyQueryParams(db.knex('posts'), parseQueryParams('search=alice'), relatedMap)
      expectSql(db.name, 'search/fulltext/relation column', query)
      const expected = await expectedIds(db, 'alice', () => true)
      expect(expected.length).to.be.greaterThan(2)
      expect(sortedIdsOf(await query)).to.deep.equal(expected)
    })

    it("reads the related table's full-text index (PostgreSQL: its GIN index; MariaDB: FULLTEXT; SQLite: its FTS5 table)", async () => {
      await db.knex.transaction(async (trx) => {
        if (db.name === 'postgres') await trx.raw('set local enable_seqscan = off')
        const plan = await explainPlan(
          trx,
          db.name,
          applyQueryParams(trx('posts'), parseQueryParams('search=alice&limit=5'), relatedMap),
        )
        const expected = {
          postgres: 'Bitmap Index Scan (users_search)',
          mysql: 'type=fulltext key=users_search',
          sqlite: 'SCAN users_fts VIRTUAL TABLE INDEX',
        }
        expect(plan.text).to.include(expected[db.name])
      })
    })

    it("applies the related table's guard inside the relation filter, and paginate counts the same rows", async () => {
      const query = applyQueryParams(db.knex('posts'), parseQueryParams('search=alice'), guardedMap)
      expectSql(db.name, 'search/fulltext/guarded relation column', query)
      const expected = await expectedIds(db, 'alice', (id) => id !== 1)
      expect(expected).not.to.deep.equal(await expectedIds(db, 'alice', () => true))
      expect(sortedIdsOf(await query)).to.deep.equal(expected)
      const page = await paginate(
        applyQueryParams(db.knex('posts'), parseQueryParams('search=alice&limit=2&page=1'), guardedMap),
        { limit: 2, page: 1 },
      )
      expect(page.meta.total).to.equal(expected.length)
    })

    it("needs every term in one source: a word of a post's title and a word of its author's name find nothing together", async () => {
      const search = (text: string) =>
        applyQueryParams(db.knex('posts'), parseQueryParams(`search=${encodeURIComponent(text)}`), relatedMap)
      expect(sortedIdsOf(await search('gotchas'))).to.deep.equal([10]) // post 10, "MySQL Gotchas", by Carol
      expect(sortedIdsOf(await search('carol'))).to.include(10)
      expect(sortedIdsOf(await search('gotchas carol'))).to.deep.equal([])
    })
  })
}

describe('search: fulltext relation columns in the map', () => {
  it('need the related table to declare a fulltext search of the columns listed through the path (a plain Error naming it)', () => {
    const withoutIndex = {
      ...relationMap,
      posts: { ...relationMap.posts, search: { ...POSTS_FULLTEXT, columns: ['title', 'author.name'] } },
    }
    expect(() => defineRelationMap(withoutIndex)).to.throw(
      "knex-query-params: posts.search.columns[1]: 'author.name' is a relation column: a fulltext search reads it from " +
        "users's own full-text index, so users must declare search: { columns: ['name'], mode: 'fulltext' } (the " +
        "columns listed through 'author')",
    )
    const otherColumns = {
      ...withoutIndex,
      users: { ...relationMap.users, search: { columns: ['email'], mode: 'fulltext' } },
    }
    expect(() => defineRelationMap(otherColumns as typeof withoutIndex)).to.throw(/'author\.name' is a relation column/)
  })
})
