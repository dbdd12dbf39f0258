import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { ApplyOptions } from '../../lib/options.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases, type TestDatabase } from '../support/databases.ts'
import { expectSql } from '../support/snapshot.ts'

/** The demo map with top-N and to-one relations added; `posts` optionally guarded (published only). */
function topMap(guardPosts: boolean): RelationMap {
  const { users, posts } = relationMap
  return defineRelationMap({
    ...relationMap,
    users: {
      ...users,
      relations: {
        ...users.relations,
        topPosts: {
          type: 'hasMany',
          table: 'posts',
          foreignKey: 'user_id',
          limit: 2,
          orders: [{ column: 'views', direction: 'desc' }],
        },
        latestPublished: {
          type: 'hasMany',
          table: 'posts',
          foreignKey: 'user_id',
          limit: 2,
          orders: [{ column: 'published_at', direction: 'desc' }],
        },
        earliestPublished: {
          type: 'hasMany',
          table: 'posts',
          foreignKey: 'user_id',
          limit: 2,
          orders: [{ column: 'published_at', direction: 'asc' }],
        },
        firstImages: { type: 'morphMany', table: 'images', name: 'imageable', morphType: 'User', limit: 2 },
        firstPost: { type: 'hasOne', table: 'posts', foreignKey: 'user_id' },
      },
    },
    posts: {
      ...posts,
      relations: {
        ...posts.relations,
        newestTags: {
          type: 'belongsToMany',
          table: 'tags',
          pivotTable: 'post_tag',
          foreignPivotKey: 'post_id',
          relatedPivotKey: 'tag_id',
          limit: 2,
          orders: [{ column: 'created_at', direction: 'desc' }],
        },
      },
      ...(guardPosts
        ? {
            guard: (query, { table }) => {
              query.where(`${table}.published`, true)
            },
          }
        : {}),
    },
  })
}

type Post = (typeof demoData.posts)[number]

/** Compares two values with NULL as the smallest, as the library orders. */
const compare = (a: string | number | null, b: string | number | null): number =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1

/** The ids of the first `limit` of `rows` by `value` in `direction`, then by id in the same direction. */
function topIds<T extends { id: number }>(
  rows: readonly T[],
  value: (row: T) => string | number | null,
  direction: 'asc' | 'desc',
  limit: number,
): number[] {
  const sign = direction === 'asc' ? 1 : -1
  return [...rows]
    .sort((a, b) => sign * (compare(value(a), value(b)) || a.id - b.id))
    .slice(0, limit)
    .map((row) => row.id)
}

const postsOf = (userId: number, published = false): Post[] =>
  demoData.posts.filter((post) => post.user_id === userId && (!published || post.published))
const ids = (value: unknown): number[] => rowsOf(value).map((row) => Number(row.id))

function run(
  db: TestDatabase,
  table: string,
  query: string,
  map: RelationMap,
  options: ApplyOptions = {},
): Promise<Array<Record<string, unknown>>> {
  return Promise.resolve(
    applyQueryParams(db.knex(table), parseQueryParams(query), map, options).orderBy(`${table}.id`),
  ).then(rowsOf)
}

for (const db of testDatabases()) {
  describe(`top N per parent and one row per to-one parent (${db.name})`, () => {
    const map = topMap(false)

    it('a hasMany with limit and orders gives each parent its first rows in that order, in one query (LATERAL on PostgreSQL)', async () => {
      const { result, queries } = await countQueries(db.knex, () => run(db, 'users', 'with[0]=topPosts', map))
      expect(queries).to.have.length(2)
      // PostgreSQL reads N rows per parent through LATERAL; the others number each parent's rows with a window.
      expect(queries[1]?.sql).to.match(
        db.name === 'postgres'
          ? /cross join lateral \(select .* limit \$\d+\) as "__kqp_top"/
          : /row_number\(\) over \(partition by/i,
      )
      expectSql(db.name, 'top per parent/hasMany limit 2 by views desc', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
      for (const user of result) {
        expect(ids(user.topPosts), `user ${String(user.id)}`).to.deep.equal(
          topIds(postsOf(Number(user.id)), (post) => post.views, 'desc', 2),
        )
        for (const post of rowsOf(user.topPosts)) expect(Object.keys(post)).to.not.include('__kqp_rank')
      }
      expect(ids(result.find((user) => user.id === 1)?.topPosts)).to.deep.equal([1, 2])
    })

    it('orders NULLs as the smallest values on every database', async () => {
      const { result, queries } = await countQueries(db.knex, () =>
        run(db, 'users', 'with[0]=latestPublished&with[1]=earliestPublished', map),
      )
      expectSql(db.name, 'top per parent/nullable order desc', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
      for (const user of result) {
        const posts = postsOf(Number(user.id))
        expect(ids(user.latestPublished), `user ${String(user.id)}`).to.deep.equal(
          topIds(posts, (post) => post.published_at, 'desc', 2),
        )
        expect(ids(user.earliestPublished), `user ${String(user.id)}`).to.deep.equal(
          topIds(posts, (post) => post.published_at, 'asc', 2),
        )
      }
      const user3 = result.find((user) => user.id === 3)
      expect(ids(user3?.latestPublished)).to.deep.equal([10, 9])
      expect(ids(user3?.earliestPublished)).to.deep.equal([11, 9])
    })

    it('a belongsToMany ranks per parent through the pivot, and a morphMany without orders by key', async () => {
      const { result: posts, queries } = await countQueries(db.knex, () => run(db, 'posts', 'with[0]=newestTags', map))
      expectSql(db.name, 'top per parent/belongsToMany through the pivot', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
      const createdOf = new Map(demoData.tags.map((tag) => [tag.id, tag.created_at]))
      for (const post of posts) {
        const tags = demoData.post_tag.filter((link) => link.post_id === post.id).map((link) => ({ id: link.tag_id }))
        expect(ids(post.newestTags), `post ${String(post.id)}`).to.deep.equal(
          topIds(tags, (tag) => createdOf.get(tag.id) ?? null, 'desc', 2),
        )
      }
      expect(ids(posts.find((post) => post.id === 4)?.newestTags)).to.deep.equal([3, 2])
      const users = await run(db, 'users', 'with[0]=firstImages', map)
      expect(ids(users.find((user) => user.id === 5)?.firstImages)).to.deep.equal([2, 3])
      expect(ids(users.find((user) => user.id === 2)?.firstImages)).to.deep.equal([])
    })

    it('a hasOne fetches one row per parent (the lowest key): a budget of one row per parent is enough', async () => {
      const withPosts = new Set(demoData.posts.map((post) => post.user_id)).size
      const { result, queries } = await countQueries(db.knex, () =>
        run(db, 'users', 'with[0]=firstPost', map, { maxEagerRows: withPosts }),
      )
      expect(queries).to.have.length(2)
      expectSql(db.name, 'top per parent/hasOne lowest key', {
        toSQL: () => ({ sql: queries[1]?.sql ?? '', bindings: queries[1]?.bindings ?? [] }),
      })
      for (const user of result) {
        const first = postsOf(Number(user.id))[0]
        expect(
          user.firstPost === null ? null : Number((user.firstPost as { id: unknown }).id),
          `user ${String(user.id)}`,
        ).to.equal(first?.id ?? null)
      }
    })

    it('a morphOne fetches one row per parent too', async () => {
      const withImages = new Set(
        demoData.images.filter((image) => image.imageable_type === 'User').map((image) => image.imageable_id),
      ).size
      const users = await run(db, 'users', 'with[0]=avatar', relationMap, { maxEagerRows: withImages })
      expect(
        users.map((user) => (user.avatar === null ? null : Number((user.avatar as { id: unknown }).id))),
      ).to.deep.equal(
        demoData.users.map(
          (user) =>
            demoData.images.find((image) => image.imageable_type === 'User' && image.imageable_id === user.id)?.id ??
            null,
        ),
      )
    })

    it('guards apply before ranking', async () => {
      const result = await run(db, 'users', 'with[0]=latestPublished', topMap(true))
      for (const user of result) {
        expect(ids(user.latestPublished), `user ${String(user.id)}`).to.deep.equal(
          topIds(postsOf(Number(user.id), true), (post) => post.published_at, 'desc', 2),
        )
      }
      expect(ids(result.find((user) => user.id === 2)?.latestPublished)).to.deep.equal([7, 6])
    })

    it('relation filters and relationsExists see every related row, not only the top N', async () => {
      // Post 3 (87 views) is not among user 1's two most viewed posts.
      const result = await run(
        db,
        'users',
        'wheres[0][column]=topPosts.id&wheres[0][value]=3&relationsExists[0]=topPosts&with[0]=topPosts',
        map,
      )
      expect(result.map((user) => user.id)).to.deep.equal([1])
      expect(ids(result[0]?.topPosts)).to.deep.equal([1, 2])
    })

    it('nested relations load below the top N rows only', async () => {
      const result = await run(db, 'users', 'with[0]=topPosts.comments', map)
      const user1 = result.find((user) => user.id === 1)
      for (const post of rowsOf(user1?.topPosts)) {
        expect(ids(post.comments)).to.deep.equal(
          demoData.comments.filter((comment) => comment.post_id === post.id).map((comment) => comment.id),
        )
      }
    })
  })
}
