import { expect } from 'chai'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import type { RelationMap } from '../../lib/relation-map.ts'

/** A small valid map with aggregates, fresh on every call, for each test to break in one place. */
function mapWith(aggregates: unknown): Record<string, Record<string, unknown>> {
  return {
    users: {
      columns: { id: 'integer', name: 'string', posts_total: 'integer' },
      relations: {
        posts: { type: 'hasMany', table: 'posts', foreignKey: 'user_id' },
        images: { type: 'morphMany', table: 'images', name: 'imageable', morphType: 'User' },
      },
      aggregates,
    },
    posts: {
      columns: { id: 'integer', user_id: 'integer', title: 'string', views: 'integer', published: 'boolean' },
      scopes: { published: (): void => {} },
    },
    images: {
      columns: { id: 'integer', url: 'string' },
      relations: { imageable: { type: 'morphTo', name: 'imageable', types: { User: 'users' } } },
      aggregates: {},
    },
  }
}

const define = (aggregates: unknown): unknown => defineRelationMap(mapWith(aggregates) as unknown as RelationMap)

describe('defineRelationMap: aggregates', () => {
  it('accepts sum, avg, min, max and count (with a scope of the related table)', () => {
    expect(() =>
      define({
        postsViewsSum: { relation: 'posts', fn: 'sum', column: 'views' },
        postsViewsAvg: { relation: 'posts', fn: 'avg', column: 'views' },
        firstTitle: { relation: 'posts', fn: 'min', column: 'title' },
        publishedPostsCount: { relation: 'posts', fn: 'count', scope: 'published' },
        imagesCount: { relation: 'images', fn: 'count' },
      }),
    ).not.to.throw()
  })

  const cases: Array<[string, unknown, string]> = [
    [
      'an unknown relation',
      { x: { relation: 'post', fn: 'count' } },
      "knex-query-params: users.aggregates.x.relation: 'post' is not a relation of users (did you mean 'posts'?)",
    ],
    [
      'an unknown column',
      { x: { relation: 'posts', fn: 'sum', column: 'view' } },
      "knex-query-params: users.aggregates.x.column: 'view' is not a column of posts (did you mean 'views'?)",
    ],
    [
      'an avg over a string column',
      { x: { relation: 'posts', fn: 'avg', column: 'title' } },
      "knex-query-params: users.aggregates.x.column: 'avg' needs a numeric column (integer or number), and posts.title is string",
    ],
    [
      'a sum without a column',
      { x: { relation: 'posts', fn: 'sum' } },
      "knex-query-params: users.aggregates.x.column: missing; 'sum' needs a column of posts",
    ],
    [
      'a max over a boolean',
      { x: { relation: 'posts', fn: 'max', column: 'published' } },
      'knex-query-params: users.aggregates.x.column: ',
    ],
    [
      'an unknown function',
      { x: { relation: 'posts', fn: 'median', column: 'views' } },
      "knex-query-params: users.aggregates.x.fn: 'median' is not an aggregate function",
    ],
    [
      'an unknown scope',
      { x: { relation: 'posts', fn: 'count', scope: 'draft' } },
      "knex-query-params: users.aggregates.x.scope: 'draft' is not a scope of posts; expected one of published",
    ],
    [
      'an unknown key',
      { x: { relation: 'posts', fn: 'count', filter: 'x' } },
      'knex-query-params: users.aggregates.x.filter: unknown key',
    ],
    [
      'a name a relation has',
      { posts: { relation: 'posts', fn: 'count' } },
      "knex-query-params: users.aggregates.posts: 'posts' is already a relation of users",
    ],
    [
      'a name a column has (in either spelling)',
      { postsTotal: { relation: 'posts', fn: 'count' } },
      "knex-query-params: users.aggregates.postsTotal: 'postsTotal' is already a column of users",
    ],
    [
      'a dotted name',
      { 'posts.count': { relation: 'posts', fn: 'count' } },
      "knex-query-params: users.aggregates.posts.count: an aggregate name may not contain '.'",
    ],
    ['not an object', 'postsCount', 'knex-query-params: users.aggregates: expected an object of aggregate definitions'],
  ]
  for (const [what, aggregates, message] of cases) {
    it(`rejects ${what}, naming the path`, () => {
      expect(() => define(aggregates))
        .to.throw(Error)
        .with.property('message')
        .that.satisfies((text: string) => text.startsWith(message))
    })
  }

  it('rejects an aggregate over a morphTo relation', () => {
    const map = mapWith({})
    map.images = { ...map.images, aggregates: { ownerExists: { relation: 'imageable', fn: 'count' } } }
    expect(() => defineRelationMap(map as unknown as RelationMap)).to.throw(
      "knex-query-params: images.aggregates.ownerExists.relation: 'imageable' is a morphTo relation, which aggregates do not support",
    )
  })
})
