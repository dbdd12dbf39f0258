import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQueryParams, countQuery, paginate, parseQueryParams } from '../../lib/index.ts'
import { loadRelations } from '../../lib/eager-load/load-relations.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { applyQuery, idsOf, rowsOf, sortedIdsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import { expectSql } from '../support/snapshot.ts'

// What each aggregate must be, worked out from the fixture rows in JavaScript, not by a database.
const postsOf = (userId: number): typeof demoData.posts => demoData.posts.filter((post) => post.user_id === userId)
const postsCount = (userId: number): number => postsOf(userId).length
const publishedCount = (userId: number): number => postsOf(userId).filter((post) => post.published).length
const viewsSum = (userId: number): number | null =>
  postsOf(userId).length === 0 ? null : postsOf(userId).reduce((sum, post) => sum + post.views, 0)
const ratingAvg = (userId: number): number | null => {
  const ratings = postsOf(userId).flatMap((post) => (post.rating === null ? [] : [post.rating]))
  return ratings.length === 0 ? null : ratings.reduce((sum, rating) => sum + rating, 0) / ratings.length
}
const commentsCount = (postId: number): number =>
  demoData.comments.filter((comment) => comment.post_id === postId).length
const tagsCount = (postId: number): number => demoData.post_tag.filter((link) => link.post_id === postId).length
const teamExists = (teamId: number | null): boolean => demoData.teams.some((team) => team.id === teamId)
const userIds = demoData.users.map((user) => user.id)

const where = (index: number, column: string, operator: string, value: string, boolean = 'and'): string =>
  `wheres[${index}][column]=${column}&wheres[${index}][operator]=${encodeURIComponent(operator)}&wheres[${index}][value]=${encodeURIComponent(value)}&wheres[${index}][boolean]=${boolean}`

/** The demo map with a guard on posts: only published posts may be seen, wherever they are reached. */
const publishedOnly: RelationMap = {
  ...relationMap,
  posts: { ...relationMap.posts, guard: (query, { table }) => void query.where(`${table}.published`, true) },
}

for (const db of testDatabases()) {
  describe(`aggregates: with[i]=<relation>Count, <relation>Exists and declared ones (${db.name})`, () => {
    it('postsCount and teamExists on every user: numbers and booleans from the database', async () => {
      const query = applyQuery(db, 'users', 'with[0]=postsCount&with[1]=teamExists&orders[0][column]=id')
      expectSql(db.name, 'aggregates/count and exists', query)
      const rows = rowsOf(await query)
      expect(rows.map((row) => [row.id, row.posts_count, row.team_exists])).to.deep.equal(
        demoData.users.map((user) => [user.id, postsCount(user.id), teamExists(user.team_id)]),
      )
    })

    it('snake_case spelling and a to-many exists: with[0]=posts_exists', async () => {
      const rows = rowsOf(await applyQuery(db, 'users', 'with[0]=posts_exists&orders[0][column]=id'))
      expect(rows.map((row) => row.posts_exists)).to.deep.equal(userIds.map((id) => postsCount(id) > 0))
    })

    it('declared aggregates: a sum, an avg (numbers or null) and a count restricted by a scope of posts', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=postsViewsSum&with[1]=postsRatingAvg&with[2]=publishedPostsCount&orders[0][column]=id',
      )
      expectSql(db.name, 'aggregates/declared', query)
      const rows = rowsOf(await query)
      expect(rows.map((row) => [row.posts_views_sum, row.published_posts_count])).to.deep.equal(
        userIds.map((id) => [viewsSum(id), publishedCount(id)]),
      )
      rows.forEach((row, index) => {
        const expected = ratingAvg(userIds[index] ?? 0)
        if (expected === null) expect(row.posts_rating_avg).to.equal(null)
        else expect(row.posts_rating_avg).to.be.a('number').and.closeTo(expected, 1e-9)
      })
    })

    it('a min and a max of a datetime column are the JSON datetime (ISO 8601 in UTC), on every database and read path', async () => {
      const withLatest: RelationMap = {
        ...relationMap,
        users: {
          ...relationMap.users,
          aggregates: {
            ...relationMap.users?.aggregates,
            postsFirstAt: { relation: 'posts', fn: 'min', column: 'created_at' },
            postsLatestAt: { relation: 'posts', fn: 'max', column: 'created_at' },
          },
        },
      }
      const iso = (text: string): string => `${text.replace(' ', 'T')}.000Z`
      const expected = userIds.map((id) => {
        const times = postsOf(id)
          .map((post) => post.created_at)
          .sort()
        return [times.length === 0 ? null : iso(times[0] ?? ''), times.length === 0 ? null : iso(times.at(-1) ?? '')]
      })
      const rows = rowsOf(
        await applyQueryParams(
          db.knex('users'),
          parseQueryParams('with[0]=postsFirstAt&with[1]=postsLatestAt&orders[0][column]=id'),
          withLatest,
        ),
      )
      expect(rows.map((row) => [row.posts_first_at, row.posts_latest_at])).to.deep.equal(expected)
      const users = await db.knex('users').select('id').orderBy('id')
      const loaded = await loadRelations(db.knex, 'users', users, ['postsLatestAt'], withLatest)
      expect(loaded.map((row) => (row as Record<string, unknown>).posts_latest_at)).to.deep.equal(
        expected.map(([, latest]) => latest),
      )
    })

    it('morphMany count and morphOne exists: with[0]=imagesCount&with[1]=avatarExists (the morph type bound)', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=imagesCount&with[1]=avatarExists&orders[0][column]=imagesCount&orders[0][direction]=desc&orders[1][column]=id',
      )
      expectSql(db.name, 'aggregates/morph', query)
      const images = (id: number): number =>
        demoData.images.filter((image) => image.imageable_type === 'User' && image.imageable_id === id).length
      const rows = rowsOf(await query)
      const expected = [...userIds].sort((a, b) => images(b) - images(a) || a - b)
      expect(rows.map((row) => [row.id, row.images_count, row.avatar_exists])).to.deep.equal(
        expected.map((id) => [id, images(id), images(id) > 0]),
      )
    })

    it("a caller's select('*') gets no join (it would widen the rows): the order is by the scalar subquery", async () => {
      const query = applyQuery(
        db,
        'users',
        'orders[0][column]=postsCount&orders[0][direction]=desc&limit=3',
        {},
        db.knex('users').select('*'),
      )
      expect(query.toSQL().sql).not.to.include('join')
      const rows = rowsOf(await query)
      expect(rows.map((row) => row.id)).to.deep.equal(
        [...userIds].sort((a, b) => postsCount(b) - postsCount(a) || b - a).slice(0, 3),
      )
      expect(Object.keys(rows[0] ?? {}).filter((key) => key.startsWith('kqp'))).to.deep.equal([])
    })

    it('nested: posts.commentsCount and posts.tagsCount on each loaded post (belongsToMany counted through the pivot)', async () => {
      const { result, queries } = await countQueries(db.knex, () =>
        applyQuery(db, 'users', 'with[0]=posts.commentsCount&with[1]=posts.tagsCount&orders[0][column]=id'),
      )
      expect(queries).to.have.length(3)
      for (const row of rowsOf(result)) {
        const posts = row.posts as Array<Record<string, unknown>>
        expect(posts.map((post) => post.id)).to.deep.equal(postsOf(Number(row.id)).map((post) => post.id))
        for (const post of posts)
          expect([post.comments_count, post.tags_count]).to.deep.equal([
            commentsCount(Number(post.id)),
            tagsCount(Number(post.id)),
          ])
      }
    })

    it('orders by a count, most first, with the primary key as tie-breaker on a page', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=postsCount&orders[0][column]=postsCount&orders[0][direction]=desc&limit=5',
      )
      expectSql(db.name, 'aggregates/order by count', query)
      const expected = [...userIds].sort((a, b) => postsCount(b) - postsCount(a) || b - a).slice(0, 5)
      expect(idsOf(await query)).to.deep.equal(expected)
    })

    it('orders by a declared sum: users without posts (NULL) first ascending, as every NULL in this library', async () => {
      const rows = rowsOf(await applyQuery(db, 'users', 'orders[0][column]=postsViewsSum&orders[1][column]=id'))
      const expected = [...userIds].sort((a, b) => (viewsSum(a) ?? -Infinity) - (viewsSum(b) ?? -Infinity) || a - b)
      expect(rows.map((row) => row.id)).to.deep.equal(expected)
      expect(rows[0]).not.to.have.property('posts_views_sum')
    })

    it('a deep page (deferred on MySQL and SQLite) keeps the aggregates, the join and the order', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=postsCount&with[1]=teamExists&orders[0][column]=postsCount&orders[0][direction]=desc&limit=2&offset=1000',
      )
      expect(rowsOf(await query)).to.deep.equal([])
      const rows = rowsOf(
        await applyQuery(
          db,
          'users',
          'with[0]=postsCount&orders[0][column]=postsCount&orders[0][direction]=desc&limit=2&offset=1',
        ),
      )
      const expected = [...userIds].sort((a, b) => postsCount(b) - postsCount(a) || b - a).slice(1, 3)
      expect(rows.map((row) => [row.id, row.posts_count])).to.deep.equal(expected.map((id) => [id, postsCount(id)]))
    })

    it('a where on the aggregate a page is ordered by reads the order join on the page; the count keeps the subquery', async () => {
      const sums = userIds.flatMap((id) => (viewsSum(id) === null ? [] : [viewsSum(id) ?? 0])).sort((a, b) => a - b)
      const threshold = sums[Math.floor(sums.length / 2)] ?? 0
      const request = `${where(0, 'postsViewsSum', '>=', String(threshold))}&${where(1, 'id', '>', '0')}&with[0]=postsCount&orders[0][column]=postsViewsSum&orders[0][direction]=desc&limit=3`
      const query = applyQuery(db, 'users', request)
      const kept = userIds.filter((id) => (viewsSum(id) ?? -Infinity) >= threshold)
      const expected = [...kept].sort((a, b) => (viewsSum(b) ?? 0) - (viewsSum(a) ?? 0) || b - a).slice(0, 3)
      // The statement as it runs, with no probe on any database: the where reads the grouped join the order reads.
      const { sql, bindings } = query.toSQL()
      expect(sql).to.match(/where \(.users.\..id. > \? and .kqp_aggregate.\..kqp_value. >= \?\)/)
      expect(sql).not.to.match(/> \? and \(select sum/)
      const raw: unknown = await db.knex.raw(sql, [...bindings])
      const ran =
        db.name === 'postgres' ? (raw as { rows: unknown[] }).rows : db.name === 'mysql' ? (raw as unknown[])[0] : raw
      expect(idsOf(ran)).to.deep.equal(expected)
      expect(idsOf(await query)).to.deep.equal(expected)
      expect(idsOf(await query.clone()), 'the plain clone').to.deep.equal(expected)
      const count = countQuery(query)
      expect(count.toSQL().sql).to.match(/where \(.users.\..id. > \? and \(select sum\(.posts.\..views.\) from .posts./)
      expect(Number(rowsOf(await count)[0]?.total)).to.equal(kept.length)
    })

    it('filters by a count and by an exists, without selecting them', async () => {
      const query = applyQuery(
        db,
        'users',
        `${where(0, 'postsCount', '>=', '3')}&${where(1, 'teamExists', '=', 'true')}`,
      )
      expectSql(db.name, 'aggregates/where', query)
      expect(sortedIdsOf(await query)).to.deep.equal(
        userIds.filter((id) => postsCount(id) >= 3 && teamExists(demoData.users[id - 1]?.team_id ?? null)),
      )
    })

    it("an or between a column and a count stays inside the client's group: the caller's where still holds", async () => {
      const base = db.knex('users').where('users.id', '>', 1)
      const query = applyQuery(
        db,
        'users',
        `${where(0, 'id', '=', '1')}&${where(1, 'posts_count', 'in', '0', 'or')}`,
        {},
        base,
      )
      expect(sortedIdsOf(await query)).to.deep.equal(userIds.filter((id) => id > 1 && postsCount(id) === 0))
    })

    it('a between on a declared sum, and an in list with the count repeated in the SQL', async () => {
      expect(
        sortedIdsOf(
          await applyQuery(
            db,
            'users',
            `wheres[0][column]=postsViewsSum&wheres[0][operator]=between&wheres[0][value][0]=100&wheres[0][value][1]=400`,
          ),
        ),
      ).to.deep.equal(userIds.filter((id) => (viewsSum(id) ?? -1) >= 100 && (viewsSum(id) ?? -1) <= 400))
      expect(
        sortedIdsOf(
          await applyQuery(
            db,
            'users',
            `wheres[0][column]=postsCount&wheres[0][operator]=notIn&wheres[0][value][0]=0&wheres[0][value][1]=1`,
          ),
        ),
      ).to.deep.equal(userIds.filter((id) => postsCount(id) > 1))
    })

    it('guards apply inside: a count, an exists, an order and a filter see only the posts the caller may see', async () => {
      const apply = (query: string) => applyQueryParams(db.knex('users'), parseQueryParams(query), publishedOnly)
      const query = apply(
        `with[0]=postsCount&with[1]=postsExists&${where(0, 'postsCount', '>=', '1')}&orders[0][column]=postsCount&orders[0][direction]=desc&limit=20`,
      )
      expectSql(db.name, 'aggregates/guarded', query)
      const rows = rowsOf(await query)
      const expected = userIds
        .filter((id) => publishedCount(id) >= 1)
        .sort((a, b) => publishedCount(b) - publishedCount(a) || b - a)
      expect(rows.map((row) => [row.id, row.posts_count, row.posts_exists])).to.deep.equal(
        expected.map((id) => [id, publishedCount(id), true]),
      )
    })

    it('paginate: the count query has no aggregate in its select list, and counts the filtered rows', async () => {
      const params = parseQueryParams(
        `with[0]=postsCount&${where(0, 'postsCount', '>', '0')}&orders[0][column]=postsCount&page=1&limit=2`,
      )
      const query = applyQueryParams(db.knex('users'), params, relationMap)
      const count = countQuery(query).toSQL()
      expect(count.sql).to.match(
        /^select count\(\*\) as .total. from .users. where \(\(select count\(\*\) from .posts./,
      )
      const page = await paginate(query, params)
      expect(page.meta.total).to.equal(userIds.filter((id) => postsCount(id) > 0).length)
      expect(page.data.map((row) => (row as Record<string, unknown>).posts_count)).to.deep.equal(
        userIds
          .filter((id) => postsCount(id) > 0)
          .map(postsCount)
          .sort((a, b) => a - b)
          .slice(0, 2),
      )
    })

    it('loadRelations adds counts and nested counts to rows the caller fetched', async () => {
      const rows = await db.knex('users').select('id', 'name').whereIn('id', [1, 2, 12]).orderBy('id')
      const { queries } = await countQueries(db.knex, () =>
        loadRelations(db.knex, 'users', rows, ['postsCount', 'postsViewsSum', 'posts.commentsCount'], relationMap),
      )
      expect(queries).to.have.length(3)
      expect(rows.map((row) => [row.id, row.posts_count, row.posts_views_sum])).to.deep.equal(
        [1, 2, 12].map((id) => [id, postsCount(id), viewsSum(id)]),
      )
      const posts = (rows[0] as { posts: Array<{ id: number; comments_count: unknown }> }).posts
      expect(posts.map((post) => post.comments_count)).to.deep.equal(postsOf(1).map((post) => commentsCount(post.id)))
    })

    it('an unknown …Count is unknown_relation listing the relations and aggregates allowed', () => {
      const error = expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=postzCount'), {
        code: 'unknown_relation',
        param: 'with[0]',
      })
      expect(error.allowed).to.include.members([
        'posts',
        'postsCount',
        'postsExists',
        'teamExists',
        'postsViewsSum',
        'publishedPostsCount',
      ])
      expect(error.allowed).not.to.include('teamCount')
      expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=teamCount'), {
        code: 'unknown_relation',
        param: 'with[0]',
      })
    })

    it('caps: aggregates count towards maxWith, maxWithDepth and maxRelationFilters', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=posts&with[1]=postsCount', { maxWith: 1 }), {
        code: 'limit_exceeded',
        param: 'with',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=posts.commentsCount', { maxWithDepth: 1 }), {
        code: 'limit_exceeded',
        param: 'with[0]',
      })
      expectQueryParamsError(
        () =>
          applyQuery(db, 'users', `${where(0, 'postsCount', '>', '0')}&${where(1, 'teamExists', '=', 'true')}`, {
            maxRelationFilters: 1,
          }),
        {
          code: 'limit_exceeded',
          param: 'wheres[1][column]',
        },
      )
    })

    it('rejects like on a count, a value that is not a number, and aggregates with distinct', () => {
      expectQueryParamsError(() => applyQuery(db, 'users', where(0, 'postsCount', 'like', '1')), {
        code: 'invalid_operator',
        param: 'wheres[0][operator]',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', where(0, 'postsCount', '>', 'many')), {
        code: 'invalid_value',
        param: 'wheres[0][value]',
      })
      expectQueryParamsError(() => applyQuery(db, 'users', 'distinct[0]=team_id&with[0]=postsCount'), {
        code: 'invalid_distinct',
        param: 'distinct',
      })
    })
  })
}
