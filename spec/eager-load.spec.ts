import { expect } from 'chai'
import type { Knex } from 'knex'
import { demoData } from '../fixtures/data.ts'
import { relationMap } from '../fixtures/relation-map.ts'
import { loadWithTree } from '../lib/eager-load/load-with-tree.ts'
import { parentKeysFor } from '../lib/eager-load/keys.ts'
import type { Row } from '../lib/normalize/row-values.ts'
import type { RelationMap } from '../lib/relation-map.ts'
import { relationsOf } from '../lib/validate/relations-of.ts'
import type { WithNode } from '../lib/validate/query-plan.ts'
import { countQueries, type QueryEvent } from './support/count-queries.ts'
import { testDatabases } from './support/databases.ts'

const map: RelationMap = relationMap

function node(
  table: string,
  name: string,
  children: Record<string, WithNode[]> = {},
  relations: RelationMap = map,
): WithNode {
  const relation = relationsOf(relations, table).get(name)
  if (relation === undefined) throw new Error(`no relation ${table}.${name}`)
  return { relation, children }
}

/** Runs `load` and returns the statements it issued (BEGIN/COMMIT/ROLLBACK left out). */
const queriesOf = async (knex: Knex, load: () => Promise<void>): Promise<QueryEvent[]> =>
  (await countQueries(knex, load)).queries

const asRow = (value: unknown): Row => {
  expect(value).to.be.an('object').and.not.equal(null)
  expect(Array.isArray(value)).to.equal(false)
  return value as Row
}

const asRows = (value: unknown): Row[] => {
  expect(value).to.be.an('array')
  return (value as unknown[]).map(asRow)
}

const idOf = (value: unknown): number | null => (value === null ? null : Number(asRow(value).id))
const idsOf = (value: unknown): number[] => asRows(value).map((row) => Number(row.id))
const byId = (rows: readonly Row[], id: number): Row => asRow(rows.find((row) => Number(row.id) === id))
const sortedNumbers = (values: Iterable<number>): number[] => [...values].sort((a, b) => a - b)
const allowed = (table: string): string[] => Object.keys(map[table]?.columns ?? {})

const postIdsOfUser = (userId: number): number[] =>
  sortedNumbers(demoData.posts.filter((post) => post.user_id === userId).map((post) => post.id))
const commentIdsOfPost = (postId: number): number[] =>
  sortedNumbers(demoData.comments.filter((comment) => comment.post_id === postId).map((comment) => comment.id))
const tagIdsOfPost = (postId: number): number[] =>
  sortedNumbers(demoData.post_tag.filter((link) => link.post_id === postId).map((link) => link.tag_id))
const imageIdsOf = (type: 'User' | 'Post', id: number): number[] =>
  sortedNumbers(
    demoData.images
      .filter((image) => image.imageable_type === type && image.imageable_id === id)
      .map((image) => image.id),
  )

for (const db of testDatabases()) {
  describe(`eager loading (${db.name})`, () => {
    const users = (): Promise<Row[]> =>
      db.knex('users').select('users.id', 'users.name', 'users.team_id').orderBy('users.id')
    const posts = (): Promise<Row[]> =>
      db.knex('posts').select('posts.id', 'posts.title', 'posts.user_id').orderBy('posts.id')

    describe('parentKeysFor', () => {
      it('names the parent columns each relation type needs', () => {
        expect(
          parentKeysFor([
            node('users', 'team'),
            node('users', 'posts'),
            node('users', 'avatar'),
            node('users', 'ownedTeam'),
          ]),
        ).to.deep.equal(['team_id', 'id'])
        expect(parentKeysFor([node('images', 'imageable')])).to.deep.equal(['imageable_type', 'imageable_id'])
        expect(parentKeysFor([node('posts', 'tags'), node('posts', 'author')])).to.deep.equal(['id', 'user_id'])
        expect(parentKeysFor([])).to.deep.equal([])
      })
    })

    describe('belongsTo', () => {
      it('attaches the owner or null, in one query over the distinct non-null keys', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'team')], map),
        )
        expect(queries).to.have.length(1)
        // The distinct keys, then the row limit: the default budget of 10,000 rows plus one.
        expect((queries[0]?.bindings ?? []).map(Number)).to.have.members([1, 2, 3, 10_001])
        for (const user of demoData.users) {
          const row = byId(rows, user.id)
          expect(idOf(row.team), `user ${user.id}`).to.equal(user.team_id)
          if (row.team !== null) expect(Object.keys(asRow(row.team))).to.have.members(allowed('teams'))
        }
        expect(asRow(byId(rows, 1).team).name).to.equal('Platform')
        expect(byId(rows, 4).team).to.equal(null)
      })

      it('gives null when the owner key is null (team without owner)', async () => {
        const teams: Row[] = await db.knex('teams').select('teams.id', 'teams.owner_id').orderBy('teams.id')
        await loadWithTree(db.knex, 'teams', teams, [node('teams', 'owner')], map)
        expect(teams.map((team) => idOf(team.owner))).to.deep.equal([3, 1, null, 5])
        expect(Object.keys(asRow(byId(teams, 1).owner))).to.not.include('password')
      })
    })

    describe('hasOne', () => {
      it('attaches the owned team or null', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'ownedTeam')], map),
        )
        expect(queries).to.have.length(1)
        expect(rows.map((row) => idOf(row.ownedTeam))).to.deep.equal([
          2,
          null,
          1,
          null,
          4,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
        ])
        expect(asRow(byId(rows, 5).ownedTeam).name).to.equal('Research')
      })
    })

    describe('hasMany', () => {
      it('attaches every child ordered by primary key, [] when there is none', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'posts')], map),
        )
        expect(queries).to.have.length(1)
        for (const user of demoData.users)
          expect(idsOf(byId(rows, user.id).posts), `user ${user.id}`).to.deep.equal(postIdsOfUser(user.id))
        expect(byId(rows, 6).posts).to.deep.equal([])
        expect(byId(rows, 8).posts).to.deep.equal([])
        const first = asRows(byId(rows, 1).posts)[0]
        expect(first?.title).to.equal('SQL Tips')
        expect(Object.keys(asRow(first))).to.have.members(allowed('posts'))
      })

      it('never returns a column that is not allow-listed (users.password)', async () => {
        const teams: Row[] = await db.knex('teams').select('teams.id').orderBy('teams.id')
        await loadWithTree(db.knex, 'teams', teams, [node('teams', 'members')], map)
        expect(idsOf(byId(teams, 1).members)).to.deep.equal([2, 3, 9])
        expect(byId(teams, 4).members).to.deep.equal([])
        for (const team of teams)
          for (const member of asRows(team.members)) expect(Object.keys(member)).to.have.members(allowed('users'))
      })
    })

    describe('belongsToMany', () => {
      it('attaches the related rows through the pivot, without the pivot key', async () => {
        const rows = await posts()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'posts', rows, [node('posts', 'tags')], map),
        )
        expect(queries).to.have.length(1)
        for (const post of demoData.posts)
          expect(idsOf(byId(rows, post.id).tags), `post ${post.id}`).to.deep.equal(tagIdsOfPost(post.id))
        expect(asRows(byId(rows, 4).tags).map((tag) => tag.name)).to.deep.equal(['sql', 'JavaScript', 'databases'])
        expect(byId(rows, 16).tags).to.deep.equal([])
        for (const row of rows)
          for (const tag of asRows(row.tags)) expect(Object.keys(tag)).to.have.members(allowed('tags'))
      })

      it('gives each parent its own copy of a related row shared with another parent', async () => {
        const rows = await posts()
        await loadWithTree(db.knex, 'posts', rows, [node('posts', 'tags')], map)
        const sqlOfPost1 = asRows(byId(rows, 1).tags)[0]
        const sqlOfPost2 = asRows(byId(rows, 2).tags)[0]
        expect(sqlOfPost1).to.deep.equal(sqlOfPost2)
        expect(sqlOfPost1).to.not.equal(sqlOfPost2)
      })

      it('works the other way round (tags.posts), with [] for an unused tag', async () => {
        const tags: Row[] = await db.knex('tags').select('tags.id').orderBy('tags.id')
        await loadWithTree(db.knex, 'tags', tags, [node('tags', 'posts')], map)
        expect(idsOf(byId(tags, 5).posts)).to.deep.equal([8, 12, 14, 21])
        expect(byId(tags, 6).posts).to.deep.equal([])
      })
    })

    describe('morphOne / morphMany', () => {
      it('morphOne takes the first child by primary key, or null', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'avatar')], map),
        )
        expect(queries).to.have.length(1)
        expect(queries[0]?.bindings).to.include('User')
        expect(rows.map((row) => idOf(row.avatar))).to.deep.equal([
          1,
          null,
          5,
          null,
          2,
          null,
          null,
          null,
          null,
          null,
          null,
          null,
        ])
        expect(asRow(byId(rows, 5).avatar).url).to.equal('https://img.example.com/users/5/avatar.png')
      })

      it('morphMany only matches its own morph type', async () => {
        const userRows = await users()
        const postRows = await posts()
        await loadWithTree(db.knex, 'users', userRows, [node('users', 'images')], map)
        await loadWithTree(db.knex, 'posts', postRows, [node('posts', 'images')], map)
        for (const user of demoData.users)
          expect(idsOf(byId(userRows, user.id).images)).to.deep.equal(imageIdsOf('User', user.id))
        for (const post of demoData.posts)
          expect(idsOf(byId(postRows, post.id).images)).to.deep.equal(imageIdsOf('Post', post.id))
        expect(idsOf(byId(userRows, 1).images)).to.deep.equal([1])
        expect(idsOf(byId(postRows, 1).images)).to.deep.equal([6, 7])
        expect(idsOf(byId(userRows, 5).images)).to.deep.equal([2, 3, 4])
      })
    })

    describe('morphTo', () => {
      it('loads each target table in one query', async () => {
        const images: Row[] = await db
          .knex('images')
          .select('images.id', 'images.imageable_type', 'images.imageable_id')
          .orderBy('images.id')
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'images', images, [node('images', 'imageable')], map),
        )
        expect(queries).to.have.length(2)
        for (const image of demoData.images) {
          const target = asRow(byId(images, image.id).imageable)
          expect(Number(target.id), `image ${image.id}`).to.equal(image.imageable_id)
          expect(Object.keys(target)).to.have.members(allowed(image.imageable_type === 'User' ? 'users' : 'posts'))
        }
        expect(asRow(byId(images, 1).imageable).name).to.equal('Alice')
        expect(asRow(byId(images, 6).imageable).title).to.equal('SQL Tips')
      })

      it('gives null for an unknown type, a null id or a missing row, without querying for them', async () => {
        const rows: Row[] = [
          { id: 1, imageable_type: 'Video', imageable_id: 1 },
          { id: 2, imageable_type: 'Post', imageable_id: null },
          { id: 3, imageable_type: 'Post', imageable_id: 999 },
          { id: 4, imageable_type: null, imageable_id: 1 },
          { id: 5, imageable_type: 'User', imageable_id: '7' },
        ]
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'images', rows, [node('images', 'imageable')], map),
        )
        expect(queries).to.have.length(2)
        expect(rows.map((row) => row.imageable ?? null).slice(0, 4)).to.deep.equal([null, null, null, null])
        expect(asRow(rows[4]?.imageable).name).to.equal('Grace')
      })
    })

    describe('nested', () => {
      it('posts.comments for all users takes exactly 2 queries', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'posts', { posts: [node('posts', 'comments')] })], map),
        )
        expect(queries).to.have.length(2)
        for (const user of demoData.users) {
          for (const post of asRows(byId(rows, user.id).posts)) {
            expect(idsOf(post.comments), `post ${String(post.id)}`).to.deep.equal(commentIdsOfPost(Number(post.id)))
          }
        }
        expect(idsOf(asRows(byId(rows, 1).posts)[0]?.comments)).to.deep.equal([1, 2, 3, 4, 5, 6])
        expect(asRows(byId(rows, 1).posts)[4]?.comments).to.deep.equal([])
      })

      it('posts.author.team takes exactly 2 queries, sharing nothing wrongly', async () => {
        const rows = await posts()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'posts', rows, [node('posts', 'author', { users: [node('users', 'team')] })], map),
        )
        expect(queries).to.have.length(2)
        for (const post of demoData.posts) {
          const author = asRow(byId(rows, post.id).author)
          const user = demoData.users.find((candidate) => candidate.id === post.user_id)
          expect(Number(author.id)).to.equal(post.user_id)
          expect(idOf(author.team), `post ${post.id}`).to.equal(user?.team_id ?? null)
        }
        expect(asRow(asRow(byId(rows, 1).author).team).name).to.equal('Platform')
        expect(asRow(byId(rows, 12).author).team).to.equal(null)
      })

      it('loads the children of each morphTo target table in one query per relation', async () => {
        const images: Row[] = await db
          .knex('images')
          .select('images.id', 'images.imageable_type', 'images.imageable_id')
          .orderBy('images.id')
        const tree = [
          node('images', 'imageable', {
            users: [node('users', 'team')],
            posts: [node('posts', 'tags'), node('posts', 'author')],
          }),
        ]
        const queries = await queriesOf(db.knex, () => loadWithTree(db.knex, 'images', images, tree, map))
        expect(queries).to.have.length(5)
        expect(asRow(asRow(byId(images, 1).imageable).team).name).to.equal('Platform')
        expect(idsOf(asRow(byId(images, 6).imageable).tags)).to.deep.equal([1, 3, 4])
        expect(asRow(asRow(byId(images, 9).imageable).author).name).to.equal('Bob')
      })

      it('selects the keys nested relations need and strips those not allow-listed', async () => {
        const narrow: RelationMap = {
          ...map,
          posts: { ...map.posts, columns: { title: 'string' } },
          comments: { ...map.comments, columns: { body: 'string' } },
        }
        const rows = await users()
        const tree = [
          node(
            'users',
            'posts',
            { posts: [node('posts', 'comments', {}, narrow), node('posts', 'tags', {}, narrow)] },
            narrow,
          ),
        ]
        const queries = await queriesOf(db.knex, () => loadWithTree(db.knex, 'users', rows, tree, narrow))
        expect(queries).to.have.length(3)
        const alicePosts = asRows(byId(rows, 1).posts)
        expect(alicePosts.map((post) => post.title)).to.deep.equal(
          demoData.posts.filter((post) => post.user_id === 1).map((post) => post.title),
        )
        for (const user of rows) {
          for (const post of asRows(user.posts)) {
            expect(Object.keys(post)).to.have.members(['title', 'comments', 'tags'])
            for (const comment of asRows(post.comments)) expect(Object.keys(comment)).to.deep.equal(['body'])
          }
        }
        expect(asRows(alicePosts[0]?.comments).map((comment) => comment.body)).to.deep.equal(
          demoData.comments.filter((comment) => comment.post_id === 1).map((comment) => comment.body),
        )
        expect(idsOf(alicePosts[0]?.tags)).to.deep.equal([1, 3, 4])
      })
    })

    describe('edge cases', () => {
      it('issues no query for an empty parent list', async () => {
        const rows: Row[] = []
        const tree = [node('users', 'posts', { posts: [node('posts', 'comments')] }), node('users', 'team')]
        const queries = await queriesOf(db.knex, () => loadWithTree(db.knex, 'users', rows, tree, map))
        expect(queries).to.have.length(0)
        expect(rows).to.deep.equal([])
      })

      it('issues no query when every parent key is null', async () => {
        const rows: Row[] = await db
          .knex('users')
          .select('users.id', 'users.team_id')
          .whereNull('users.team_id')
          .orderBy('users.id')
        expect(rows).to.have.length(3)
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'team', { teams: [node('teams', 'members')] })], map),
        )
        expect(queries).to.have.length(0)
        expect(rows.map((row) => row.team)).to.deep.equal([null, null, null])
      })

      it('matches keys by their string form (1, "1" and 1n meet)', async () => {
        const rows: Row[] = [{ id: '1' }, { id: 5n }, { id: 1 }]
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'posts')], map),
        )
        expect(queries).to.have.length(1)
        expect(queries[0]?.bindings).to.have.length(3) // two distinct keys and the row limit
        expect(idsOf(rows[0]?.posts)).to.deep.equal(postIdsOfUser(1))
        expect(idsOf(rows[1]?.posts)).to.deep.equal(postIdsOfUser(5))
        expect(idsOf(rows[2]?.posts)).to.deep.equal(postIdsOfUser(1))
      })

      it('throws when a parent row lacks a key column', async () => {
        const rows: Row[] = await db.knex('users').select('users.id').orderBy('users.id')
        let error: unknown
        try {
          await loadWithTree(db.knex, 'users', rows, [node('users', 'team')], map)
        } catch (caught) {
          error = caught
        }
        expect(error).to.be.instanceOf(Error).with.property('message').that.includes('users.team_id')
      })

      it('runs on the transaction it is given', async () => {
        const trx = await db.knex.transaction()
        try {
          await trx('posts').insert({ id: 1000, user_id: 6, title: 'Uncommitted', views: 0, published: false })
          const rows: Row[] = await trx('users').select('users.id').where('users.id', 6)
          await loadWithTree(trx, 'users', rows, [node('users', 'posts')], map)
          expect(asRows(rows[0]?.posts).map((post) => post.title)).to.deep.equal(['Uncommitted'])
        } finally {
          await trx.rollback()
        }
        const rows: Row[] = await db.knex('users').select('users.id').where('users.id', 6)
        await loadWithTree(db.knex, 'users', rows, [node('users', 'posts')], map)
        expect(rows[0]?.posts).to.deep.equal([])
      })
    })

    describe('chunking', () => {
      it('issues one query per chunk of distinct keys, with the same result', async () => {
        const expected = await users()
        await loadWithTree(db.knex, 'users', expected, [node('users', 'posts')], map)
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'posts')], map, { chunkSize: 5 }),
        )
        expect(queries).to.have.length(Math.ceil(demoData.users.length / 5))
        for (const query of queries) expect(query.bindings?.length).to.be.at.most(5 + 1) // keys and the row limit
        expect(rows).to.deep.equal(expected)
      })

      it('chunks every level of a nested tree', async () => {
        const rows = await users()
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'users', rows, [node('users', 'posts', { posts: [node('posts', 'comments')] })], map, {
            chunkSize: 5,
          }),
        )
        const userChunks = Math.ceil(demoData.users.length / 5)
        const postChunks = Math.ceil(demoData.posts.length / 5)
        expect(queries).to.have.length(userChunks + postChunks)
        expect(idsOf(asRows(byId(rows, 5).posts)[0]?.comments)).to.deep.equal(commentIdsOfPost(13))
      })

      it('chunks each morphTo target table', async () => {
        const images: Row[] = await db
          .knex('images')
          .select('images.id', 'images.imageable_type', 'images.imageable_id')
          .orderBy('images.id')
        const queries = await queriesOf(db.knex, () =>
          loadWithTree(db.knex, 'images', images, [node('images', 'imageable')], map, { chunkSize: 2 }),
        )
        const userIds = new Set(
          demoData.images.filter((image) => image.imageable_type === 'User').map((image) => image.imageable_id),
        )
        const postIds = new Set(
          demoData.images.filter((image) => image.imageable_type === 'Post').map((image) => image.imageable_id),
        )
        expect(queries).to.have.length(Math.ceil(userIds.size / 2) + Math.ceil(postIds.size / 2))
        for (const image of demoData.images) expect(idOf(byId(images, image.id).imageable)).to.equal(image.imageable_id)
      })
    })
  })
}
