import { expect } from 'chai'
import { relationMap } from '../../fixtures/relation-map.ts'
import { applyQuery, rowsOf } from '../support/apply-query.ts'
import { testDatabases } from '../support/databases.ts'
import { expectQueryParamsError } from '../support/expect-query-params-error.ts'
import type { Row } from '../support/rows.ts'
import { expectSql } from '../support/snapshot.ts'

const columnsOf = (table: keyof typeof relationMap): string[] => Object.keys(relationMap[table].columns)

const asRow = (value: unknown): Row => {
  expect(value, 'a related row').to.be.an('object').and.not.equal(null)
  expect(Array.isArray(value), 'a single row, not a list').to.equal(false)
  return value as Row
}
const asRows = (value: unknown): Row[] => {
  expect(value, 'a list of related rows').to.be.an('array')
  return (value as unknown[]).map(asRow)
}
const idOf = (value: unknown): number | null => (value === null ? null : Number(asRow(value).id))
const idsOf = (value: unknown): number[] => asRows(value).map((row) => Number(row.id))

for (const db of testDatabases()) {
  describe(`with: eager loading through applyQueryParams (${db.name})`, () => {
    it('attaches belongsTo as an object or null and hasMany as an array ([] when none)', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=team&with[1]=posts&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=4&wheres[0][value][2]=6&orders[0][column]=id',
      )
      expectSql(db.name, 'relations/with/main query', query)
      const rows = rowsOf(await query)
      expect(rows.map((row) => [row.id, idOf(row.team), idsOf(row.posts)])).to.deep.equal([
        [1, 2, [1, 2, 3, 4, 5]],
        [4, null, [12]],
        [6, 3, []],
      ])
      expect(Object.keys(rows[0] ?? {})).to.have.members([...columnsOf('users'), 'team', 'posts'])
      expect(Object.keys(asRow(rows[0]?.team))).to.have.members(columnsOf('teams'))
      expect(rows[0]?.team).to.deep.equal({
        id: 2,
        name: 'Platform',
        owner_id: 1,
        created_at: '2021-03-22T14:30:00.000Z',
        updated_at: '2023-06-01T08:15:00.000Z',
      })
      for (const post of asRows(rows[0]?.posts)) expect(Object.keys(post)).to.have.members(columnsOf('posts'))
    })

    it('attaches hasOne and morphOne as an object or null, morphMany as an array', async () => {
      const query = applyQuery(
        db,
        'users',
        'with[0]=ownedTeam&with[1]=avatar&with[2]=images&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=1&wheres[0][value][1]=2&wheres[0][value][2]=5&orders[0][column]=id',
      )
      const rows = rowsOf(await query)
      expect(rows.map((row) => [row.id, idOf(row.ownedTeam), idOf(row.avatar), idsOf(row.images)])).to.deep.equal([
        [1, 2, 1, [1]],
        [2, null, null, []],
        [5, 4, 2, [2, 3, 4]],
      ])
      expect(asRow(rows[2]?.avatar).url).to.equal('https://img.example.com/users/5/avatar.png')
    })

    it('attaches belongsToMany both ways, without pivot columns', async () => {
      const posts = rowsOf(
        await applyQuery(
          db,
          'posts',
          'with[0]=tags&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=4&wheres[0][value][1]=16&orders[0][column]=id',
        ),
      )
      expect(posts.map((row) => [row.id, idsOf(row.tags)])).to.deep.equal([
        [4, [1, 2, 3]],
        [16, []],
      ])
      for (const tag of asRows(posts[0]?.tags)) expect(Object.keys(tag)).to.have.members(columnsOf('tags'))
      const tags = rowsOf(
        await applyQuery(
          db,
          'tags',
          'with[0]=posts&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=5&wheres[0][value][1]=6&orders[0][column]=id',
        ),
      )
      expect(tags.map((row) => [row.id, idsOf(row.posts)])).to.deep.equal([
        [5, [8, 12, 14, 21]],
        [6, []],
      ])
    })

    it('attaches morphTo across types: each image gets its User or Post', async () => {
      const rows = rowsOf(await applyQuery(db, 'images', 'with[0]=imageable&orders[0][column]=id'))
      expect(rows.map((row) => [row.id, row.imageable_type, idOf(row.imageable)])).to.deep.equal([
        [1, 'User', 1],
        [2, 'User', 5],
        [3, 'User', 5],
        [4, 'User', 5],
        [5, 'User', 3],
        [6, 'Post', 1],
        [7, 'Post', 1],
        [8, 'Post', 3],
        [9, 'Post', 7],
        [10, 'Post', 7],
      ])
      expect(asRow(rows[0]?.imageable).name).to.equal('Alice')
      expect(Object.keys(asRow(rows[0]?.imageable))).to.have.members(columnsOf('users'))
      expect(asRow(rows[5]?.imageable).title).to.equal('SQL Tips')
      expect(Object.keys(asRow(rows[5]?.imageable))).to.have.members(columnsOf('posts'))
    })

    it('works after .first(): one row with its relations, or undefined', async () => {
      const row: unknown = await applyQuery(
        db,
        'users',
        'with[0]=images&with[1]=team&wheres[0][column]=id&wheres[0][value]=5',
      ).first()
      expect(idsOf(asRow(row).images)).to.deep.equal([2, 3, 4])
      expect(asRow(asRow(row).team).name).to.equal('Platform')
      const none: unknown = await applyQuery(
        db,
        'users',
        'with[0]=images&wheres[0][column]=id&wheres[0][value]=999',
      ).first()
      expect(none).to.equal(undefined)
    })

    it('resolves an empty result to [] without eager queries', async () => {
      expect(
        rowsOf(await applyQuery(db, 'users', 'with[0]=posts.comments&wheres[0][column]=id&wheres[0][value]=999')),
      ).to.deep.equal([])
    })

    it('* loads every relation of the table', async () => {
      const rows = rowsOf(await applyQuery(db, 'users', 'with[0]=*&wheres[0][column]=id&wheres[0][value]=5'))
      const user = asRow(rows[0])
      expect(Object.keys(user)).to.have.members([
        ...columnsOf('users'),
        'team',
        'posts',
        'comments',
        'ownedTeam',
        'avatar',
        'images',
      ])
      expect([
        idOf(user.team),
        idsOf(user.posts),
        idsOf(user.comments),
        idOf(user.ownedTeam),
        idOf(user.avatar),
        idsOf(user.images),
      ]).to.deep.equal([2, [13, 14, 15, 16], [3, 15, 23, 36], 4, 2, [2, 3, 4]])
    })

    it('posts.* loads every relation of each post', async () => {
      const user = asRow(
        rowsOf(await applyQuery(db, 'users', 'with[0]=posts.*&wheres[0][column]=id&wheres[0][value]=2'))[0],
      )
      const posts = asRows(user.posts)
      expect(
        posts.map((post) => [post.id, idOf(post.author), idsOf(post.comments), idsOf(post.tags), idsOf(post.images)]),
      ).to.deep.equal([
        [6, 2, [16, 17, 18], [2], []],
        [7, 2, [19, 20], [2, 4], [9, 10]],
        [8, 2, [], [5], []],
      ])
    })

    it('loads nested paths: posts.comments.author, team.owner', async () => {
      const rows = rowsOf(
        await applyQuery(
          db,
          'users',
          'with[0]=posts.comments.author&with[1]=team.owner&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=2&wheres[0][value][1]=4&orders[0][column]=id',
        ),
      )
      const [bob, dave] = rows.map(asRow)
      expect(asRow(asRow(bob?.team).owner).name).to.equal('Carol')
      expect(dave?.team).to.equal(null)
      const [post] = asRows(dave?.posts)
      const [comment] = asRows(post?.comments)
      expect([post?.id, comment?.id, asRow(comment?.author).name]).to.deep.equal([12, 26, 'Alice'])
      expect(Object.keys(asRow(comment?.author))).to.have.members(columnsOf('users'))
    })

    it('nests after morphTo on the targets that have the relation (imageable.team)', async () => {
      const rows = rowsOf(
        await applyQuery(
          db,
          'images',
          'with[0]=imageable.team&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=2&wheres[0][value][1]=6&orders[0][column]=id',
        ),
      )
      expect(asRow(asRow(asRow(rows[0]).imageable).team).name).to.equal('Platform')
      expect(asRow(asRow(rows[1]).imageable)).not.to.have.property('team')
    })

    describe('key columns the client left out', () => {
      it('columns[0]=name&with[0]=posts still attaches posts, and the rows keep only what the client asked for', async () => {
        const query = applyQuery(
          db,
          'users',
          'columns[0]=name&with[0]=posts&wheres[0][column]=id&wheres[0][operator]=in&wheres[0][value][0]=4&wheres[0][value][1]=6&orders[0][column]=id',
        )
        expectSql(db.name, 'relations/with/columns without key', query)
        const rows = rowsOf(await query)
        expect(rows.map((row) => Object.keys(row))).to.deep.equal([
          ['name', 'posts'],
          ['name', 'posts'],
        ])
        expect(rows.map((row) => [row.name, idsOf(row.posts)])).to.deep.equal([
          ['dave', [12]],
          ['Frank', []],
        ])
      })

      it('belongsTo and morphTo keys are added and removed the same way', async () => {
        const posts = rowsOf(
          await applyQuery(db, 'posts', 'columns[0]=title&with[0]=author&wheres[0][column]=id&wheres[0][value]=12'),
        )
        expect(posts.map((row) => [Object.keys(row), idOf(row.author)])).to.deep.equal([[['title', 'author'], 4]])
        const images = rowsOf(
          await applyQuery(db, 'images', 'columns[0]=url&with[0]=imageable&wheres[0][column]=id&wheres[0][value]=6'),
        )
        expect(images.map((row) => [Object.keys(row), idOf(row.imageable)])).to.deep.equal([[['url', 'imageable'], 1]])
      })

      it("keys the caller's own select left out are added and removed too", async () => {
        const base = db.knex('users').select('users.name')
        const rows = rowsOf(
          await applyQuery(db, 'users', 'with[0]=team&wheres[0][column]=id&wheres[0][value]=6', {}, base),
        )
        expect(rows.map((row) => [Object.keys(row), idOf(row.team)])).to.deep.equal([[['name', 'team'], 3]])
      })

      it('keys the client did select stay', async () => {
        const rows = rowsOf(
          await applyQuery(
            db,
            'users',
            'columns[0]=id&columns[1]=team_id&with[0]=team&wheres[0][column]=id&wheres[0][value]=6',
          ),
        )
        expect(rows.map((row) => Object.keys(row))).to.deep.equal([['id', 'team_id', 'team']])
      })
    })

    it('loads only for the rows of the page', async () => {
      const rows = rowsOf(await applyQuery(db, 'users', 'with[0]=posts&limit=2&page=2'))
      expect(rows.map((row) => [row.id, idsOf(row.posts)])).to.deep.equal([
        [3, [9, 10, 11]],
        [4, [12]],
      ])
    })

    describe('errors', () => {
      it('an unknown relation is unknown_relation with allowed (incl. * and the aggregates)', () => {
        expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=posts&with[1]=friends'), {
          code: 'unknown_relation',
          param: 'with[1]',
          allowed: [
            '*',
            'team',
            'posts',
            'comments',
            'ownedTeam',
            'avatar',
            'images',
            'postsViewsSum',
            'postsRatingAvg',
            'publishedPostsCount',
            'teamExists',
            'postsCount',
            'postsExists',
            'commentsCount',
            'commentsExists',
            'ownedTeamExists',
            'avatarExists',
            'imagesCount',
            'imagesExists',
          ],
        })
        expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=posts.likes'), {
          code: 'unknown_relation',
          param: 'with[0]',
          allowed: [
            '*',
            'author',
            'comments',
            'tags',
            'images',
            'authorExists',
            'commentsCount',
            'commentsExists',
            'tagsCount',
            'tagsExists',
            'imagesCount',
            'imagesExists',
          ],
        })
      })

      it('more than options.maxWith entries (default 20) is limit_exceeded; 20 run', async () => {
        const many = (count: number): string =>
          Array.from({ length: count }, (_, index) => `with[${index}]=team`).join('&')
        const users = rowsOf(await applyQuery(db, 'users', `${many(20)}&orders[0][column]=id`))
        expect(users.map((user) => Number(user.id))).to.deep.equal(
          (await db.knex('users').orderBy('id').pluck('id')).map(Number),
        )
        for (const user of users) {
          const team = user.team as Row | null
          expect(team === null ? null : Number(team.id), `user ${String(user.id)}'s team`).to.equal(
            user.team_id === null ? null : Number(user.team_id),
          )
        }
        expectQueryParamsError(() => applyQuery(db, 'users', many(21)), { code: 'limit_exceeded', param: 'with' })
        expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=team&with[1]=posts', { maxWith: 1 }), {
          code: 'limit_exceeded',
          param: 'with',
        })
      })

      it('a path deeper than options.maxWithDepth (default 3) is limit_exceeded; 3 levels load', async () => {
        const users = rowsOf(await applyQuery(db, 'users', 'with[0]=posts.comments.author'))
        const comments = users.flatMap((user) => (user.posts as Row[]).flatMap((post) => post.comments as Row[]))
        expect(comments.length, 'comments loaded through posts').to.equal(
          Number((await db.knex('comments').count({ n: '*' }))[0]?.n),
        )
        for (const comment of comments)
          expect(Number((comment.author as Row).id), `comment ${String(comment.id)}'s author`).to.equal(
            Number(comment.user_id),
          )
        expectQueryParamsError(() => applyQuery(db, 'users', 'with[0]=posts.comments.author.team'), {
          code: 'limit_exceeded',
          param: 'with[0]',
        })
        expectQueryParamsError(
          () => applyQuery(db, 'users', 'with[0]=team&with[1]=posts.comments', { maxWithDepth: 1 }),
          { code: 'limit_exceeded', param: 'with[1]' },
        )
      })
    })
  })
}
