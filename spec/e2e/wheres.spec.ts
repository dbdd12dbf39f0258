import { expect } from 'chai'
import { demoData } from '../../fixtures/data.ts'
import { testDatabases } from '../support/databases.ts'
import { startDemo, type RunningDemo } from './support/demo-client.ts'
import { fixtureIds, sortedIdsOf, type ListBody } from './support/expected.ts'

const { users, posts, comments, post_tag: postTag, tags } = demoData
const where = (column: string, operator: string, value: unknown, boolean: 'and' | 'or' = 'and') => ({
  column,
  operator,
  value,
  boolean,
})
const ms = (timestamp: string): number => Date.parse(`${timestamp.replace(' ', 'T')}Z`)

for (const db of testDatabases()) {
  describe(`e2e wheres on ${db.label}`, () => {
    let demo: RunningDemo
    before(async () => {
      demo = await startDemo(db.knex)
    })
    after(async () => {
      await demo.close()
    })

    const list = async (resource: string, params: Record<string, unknown>): Promise<number[]> => {
      const response = await demo.client.get<ListBody>(`/${resource}`, params)
      expect(response.status, JSON.stringify(response.body)).to.equal(200)
      return sortedIdsOf(response.body)
    }

    describe('operators', () => {
      it('= on an integer column', async () => {
        expect(await list('posts', { wheres: [where('user_id', '=', 1)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 1),
        )
      })

      it('!= leaves NULLs out, as SQL does', async () => {
        expect(await list('users', { wheres: [where('team_id', '!=', 1)] })).to.deep.equal(
          fixtureIds(users, (u) => u.team_id !== null && u.team_id !== 1),
        )
      })

      it('< and <= on a number column', async () => {
        expect(await list('users', { wheres: [where('score', '<', 50)] })).to.deep.equal(
          fixtureIds(users, (u) => u.score !== null && u.score < 50),
        )
        expect(await list('users', { wheres: [where('score', '<=', 50)] })).to.deep.equal(
          fixtureIds(users, (u) => u.score !== null && u.score <= 50),
        )
      })

      it('> and >= on an integer column', async () => {
        expect(await list('posts', { wheres: [where('views', '>', 100)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.views > 100),
        )
        expect(await list('posts', { wheres: [where('views', '>=', 100)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.views >= 100),
        )
      })

      it('compares datetimes sent as the client serialises a Date (ISO 8601, UTC)', async () => {
        const since = new Date(Date.UTC(2023, 0, 1))
        expect(await list('users', { wheres: [where('created_at', '>=', since)] })).to.deep.equal(
          fixtureIds(users, (u) => ms(u.created_at) >= since.getTime()),
        )
        const exactly = new Date(Date.UTC(2023, 8, 30, 23, 59, 59))
        expect(await list('users', { wheres: [where('created_at', '=', exactly)] })).to.deep.equal([10])
        expect(await list('users', { wheres: [where('created_at', '>', exactly)] })).to.deep.equal(
          fixtureIds(users, (u) => ms(u.created_at) > exactly.getTime()),
        )
      })

      it('compares a datetime with an offset as the instant it names', async () => {
        const response = await list('posts', { wheres: [where('published_at', '<', '2021-02-10T10:00:00+01:00')] })
        expect(response).to.deep.equal(
          fixtureIds(posts, (p) => p.published_at !== null && ms(p.published_at) < ms('2021-02-10 09:00:00')),
        )
      })

      it('compares dates', async () => {
        expect(await list('users', { wheres: [where('birthday', '<', '1990-01-01')] })).to.deep.equal(
          fixtureIds(users, (u) => u.birthday !== null && u.birthday < '1990-01-01'),
        )
      })

      it('like is case-insensitive on every database', async () => {
        expect(await list('posts', { wheres: [where('title', 'like', '%sql%')] })).to.deep.equal(
          fixtureIds(posts, (p) => p.title.toLowerCase().includes('sql')),
        )
        expect(await list('users', { wheres: [where('email', 'like', '%@example.com')] })).to.deep.equal(
          fixtureIds(users, (u) => u.email.toLowerCase().endsWith('@example.com')),
        )
      })

      it('like keeps the client wildcards: _ matches one character', async () => {
        expect(await list('users', { wheres: [where('name', 'like', '_ve')] })).to.deep.equal(
          fixtureIds(users, (u) => /^.ve$/i.test(u.name)),
        )
      })

      it('in and notIn', async () => {
        expect(await list('users', { wheres: [where('id', 'in', [1, 3, 5])] })).to.deep.equal([1, 3, 5])
        expect(await list('users', { wheres: [where('id', 'notIn', [1, 3, 5])] })).to.deep.equal(
          fixtureIds(users, (u) => ![1, 3, 5].includes(u.id)),
        )
      })

      it('between and notBetween', async () => {
        expect(await list('posts', { wheres: [where('views', 'between', [100, 500])] })).to.deep.equal(
          fixtureIds(posts, (p) => p.views >= 100 && p.views <= 500),
        )
        expect(await list('posts', { wheres: [where('views', 'notBetween', [100, 500])] })).to.deep.equal(
          fixtureIds(posts, (p) => p.views < 100 || p.views > 500),
        )
      })

      it('an in list longer than qs arrayLimit (more than 21 values)', async () => {
        const wanted = users.map((u) => u.id).concat(Array.from({ length: 20 }, (_, i) => 100 + i))
        expect(await list('users', { wheres: [where('id', 'in', wanted)] })).to.deep.equal(users.map((u) => u.id))
      })

      it('whereNull / whereNotNull send the string null', async () => {
        expect(await list('users', { wheres: [where('birthday', '=', 'null')] })).to.deep.equal(
          fixtureIds(users, (u) => u.birthday === null),
        )
        expect(await list('users', { wheres: [where('birthday', '!=', 'null')] })).to.deep.equal(
          fixtureIds(users, (u) => u.birthday !== null),
        )
      })

      it('a null value (a key without =) is IS NULL', async () => {
        expect(await list('posts', { wheres: [where('rating', '=', null)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.rating === null),
        )
      })

      it('booleans coerce: true/false and 1/0', async () => {
        const published = fixtureIds(posts, (p) => p.published)
        expect(await list('posts', { wheres: [where('published', '=', true)] })).to.deep.equal(published)
        expect(await list('posts', { wheres: [where('published', '=', 1)] })).to.deep.equal(published)
        expect(await list('posts', { wheres: [where('published', '=', false)] })).to.deep.equal(
          fixtureIds(posts, (p) => !p.published),
        )
      })

      it('or chains conditions, and stays inside the client group', async () => {
        const wheres = [where('user_id', '=', 2), where('user_id', '=', 7, 'or')]
        expect(await list('posts', { wheres })).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 2 || p.user_id === 7),
        )
        expect(await list('posts', { wheres, scopes: ['published'] })).to.deep.equal(
          fixtureIds(posts, (p) => (p.user_id === 2 || p.user_id === 7) && p.published),
        )
      })

      it('accepts camelCase column names', async () => {
        expect(await list('posts', { wheres: [where('userId', '=', 3)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 3),
        )
      })
    })

    describe('relation.column', () => {
      it('filters by a belongsTo column (posts by author name)', async () => {
        expect(await list('posts', { wheres: [where('author.name', '=', 'Carol')] })).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 3),
        )
      })

      it('filters by a hasMany column (users who commented with a word)', async () => {
        const authors = new Set(comments.filter((c) => c.body.toLowerCase().includes('coverage')).map((c) => c.user_id))
        expect(await list('users', { wheres: [where('comments.body', 'like', '%coverage%')] })).to.deep.equal(
          fixtureIds(users, (u) => authors.has(u.id)),
        )
      })

      it('serves belongsToMany the way the client asks for it: GET /tags?wheres[0][column]=posts.id', async () => {
        const tagIds = new Set(postTag.filter((pivot) => pivot.post_id === 1).map((pivot) => pivot.tag_id))
        expect(await list('tags', { wheres: [where('posts.id', '=', 1)] })).to.deep.equal(
          fixtureIds(tags, (t) => tagIds.has(t.id)),
        )
      })

      it('follows a path of relations (posts.comments.body)', async () => {
        const postIds = new Set(comments.filter((c) => c.body === 'Both.').map((c) => c.post_id))
        const userIds = new Set(posts.filter((p) => postIds.has(p.id)).map((p) => p.user_id))
        expect(await list('users', { wheres: [where('posts.comments.body', '=', 'Both.')] })).to.deep.equal(
          fixtureIds(users, (u) => userIds.has(u.id)),
        )
      })

      it('serves hasMany the way the client asks for it: GET /posts?wheres[0][column]=userId', async () => {
        expect(await list('posts', { wheres: [where('userId', '=', 5)] })).to.deep.equal(
          fixtureIds(posts, (p) => p.user_id === 5),
        )
      })

      it('serves morphMany the way the client asks for it: imageable_type and imageable_id', async () => {
        const wheres = [where('imageable_type', '=', 'User'), where('imageable_id', '=', 5)]
        expect(await list('images', { wheres })).to.deep.equal(
          fixtureIds(demoData.images, (i) => i.imageable_type === 'User' && i.imageable_id === 5),
        )
      })
    })

    describe('relations_exists', () => {
      it('keeps rows that have the relation', async () => {
        const authors = new Set(posts.map((p) => p.user_id))
        expect(await list('users', { relationsExists: ['posts'] })).to.deep.equal(
          fixtureIds(users, (u) => authors.has(u.id)),
        )
      })

      it('follows nested paths and combines with wheres', async () => {
        const commented = new Set(comments.map((c) => c.post_id))
        const authors = new Set(posts.filter((p) => commented.has(p.id)).map((p) => p.user_id))
        expect(
          await list('users', { relationsExists: ['posts.comments'], wheres: [where('is_admin', '=', true)] }),
        ).to.deep.equal(fixtureIds(users, (u) => authors.has(u.id) && u.is_admin))
      })

      it('tests morph and belongsToMany relations', async () => {
        const withImages = new Set(
          demoData.images.filter((i) => i.imageable_type === 'Post').map((i) => i.imageable_id),
        )
        expect(await list('posts', { relationsExists: ['images'] })).to.deep.equal(
          fixtureIds(posts, (p) => withImages.has(p.id)),
        )
        const tagged = new Set(postTag.map((pivot) => pivot.tag_id))
        expect(await list('tags', { relationsExists: ['posts'] })).to.deep.equal(
          fixtureIds(tags, (t) => tagged.has(t.id)),
        )
      })
    })

    it('scopes', async () => {
      expect(await list('users', { scopes: ['admins'] })).to.deep.equal(fixtureIds(users, (u) => u.is_admin))
      expect(await list('posts', { scopes: ['published', 'popular'] })).to.deep.equal(
        fixtureIds(posts, (p) => p.published && (p.views > 100 || (p.rating ?? 0) >= 4.5)),
      )
    })
  })
}
