import { expect } from 'chai'
import type { Dialect } from '../../lib/dialect/dialect.ts'
import { mysql } from '../../lib/dialect/mysql.ts'
import { postgres } from '../../lib/dialect/postgres.ts'
import { sqlite } from '../../lib/dialect/sqlite.ts'
import { defineRelationMap } from '../../lib/map/define-relation-map.ts'
import { APPLY_DEFAULTS } from '../../lib/options.ts'
import { parseQueryParams } from '../../lib/parse/parse-query-params.ts'
import { planRead } from '../../lib/plan/plan-read.ts'
import type { ReadPlan } from '../../lib/plan/read-plan.ts'
import { validateQueryParams } from '../../lib/validate/validate-query-params.ts'

/**
 * The read plan (`lib/plan/`): what `planRead` decides for a request on each dialect, before any SQL is written.
 * The SQL each decision gives is pinned by the snapshots of the specs of apply/, plans/ and guards/.
 */
const map = defineRelationMap({
  rp_users: {
    columns: {
      id: 'integer',
      name: { type: 'string', nullable: false },
      email: { type: 'string', nullable: false, unique: true },
    },
  },
  rp_tags: { columns: { id: 'integer', name: { type: 'string', nullable: false, unique: true }, kind: 'string' } },
  rp_posts: {
    columns: { id: 'integer', user_id: { type: 'integer', nullable: false }, title: 'string' },
    relations: {
      author: { type: 'belongsTo', table: 'rp_users', foreignKey: 'user_id', required: true },
      comments: { type: 'hasMany', table: 'rp_comments', foreignKey: 'post_id' },
      tags: {
        type: 'belongsToMany',
        table: 'rp_tags',
        pivotTable: 'rp_post_tag',
        foreignPivotKey: 'post_id',
        relatedPivotKey: 'tag_id',
      },
    },
  },
  rp_comments: { columns: { id: 'integer', post_id: 'integer', body: 'string' } },
})

function planOf(dialect: Dialect, request: string, paged = request.includes('limit=')): ReadPlan {
  const query = validateQueryParams(parseQueryParams(request), 'rp_posts', map, APPLY_DEFAULTS)
  return planRead(query, dialect, map, { ref: 'rp_posts', paged })
}

const TAGGED = 'wheres[0][column]=tags.name&wheres[0][value]=rare&orders[0][column]=id&limit=20'

describe('the read plan (planRead)', () => {
  it('is frozen, with every part of it', () => {
    const plan = planOf(postgres, TAGGED)
    // Object.isFrozen(undefined) is true: each part must be there first.
    expect([plan.conditions, plan.page.guard, plan.page.guard?.fenced]).to.not.include(undefined)
    expect(Object.isFrozen(plan)).to.equal(true)
    expect(Object.isFrozen(plan.page)).to.equal(true)
    expect(Object.isFrozen(plan.plain)).to.equal(true)
    expect(Object.isFrozen(plan.conditions)).to.equal(true)
    expect(Object.isFrozen(plan.page.guard)).to.equal(true)
    expect(Object.isFrozen(plan.page.guard?.walk)).to.equal(true)
    expect(Object.isFrozen(plan.page.guard?.fenced)).to.equal(true)
  })

  it("guards a page filtered through a unique related column, in each database's forms", () => {
    const pg = planOf(postgres, TAGGED).page.guard
    expect(pg && { cap: pg.cap, at: pg.at, serves: pg.orderedPivotServes, walk: pg.walk.walk }).to.deep.equal({
      cap: 5000,
      at: 'where',
      serves: true,
      walk: 'exists',
    })
    expect(pg?.fenced?.fencedBase).to.equal('rp_posts')
    expect(pg?.walk.keyLists).to.deep.equal({ base: 'rp_posts', orderedBy: undefined })
    const maria = planOf(mysql, TAGGED).page.guard
    expect(maria && { cap: maria.cap, at: maria.at, walk: maria.walk.walk, fenced: maria.fenced }).to.deep.equal({
      cap: 1000,
      at: 'where',
      walk: 'scalar',
      fenced: undefined,
    })
    const lite = planOf(sqlite, TAGGED).page.guard
    expect(lite && { cap: lite.cap, at: lite.at, serves: lite.orderedPivotServes, walk: lite.walk.walk }).to.deep.equal(
      { cap: 1000, at: 'limit', serves: false, walk: 'scalar-to-one' },
    )
  })

  it('tells key lists only for a guarded page, and guards none without a limit or without a key-first filter', () => {
    expect(planOf(sqlite, TAGGED).conditions?.keyLists).to.deep.equal({ base: 'rp_posts', orderedBy: 'id' })
    const unpaged = planOf(sqlite, 'wheres[0][column]=tags.name&wheres[0][value]=rare&orders[0][column]=id')
    expect(unpaged.conditions?.keyLists).to.equal(undefined)
    expect(unpaged.page.guard).to.equal(undefined)
    const broadRequest = 'wheres[0][column]=tags.kind&wheres[0][value]=x&orders[0][column]=id&limit=20'
    for (const dialect of [postgres, mysql]) {
      const broad = planOf(dialect, broadRequest)
      expect(broad.conditions?.keyLists, dialect.name).to.deep.equal({ base: 'rp_posts', orderedBy: 'id' })
      const guard = broad.page.guard
      // MariaDB's guard is the listed walk's: the filter's list is told, and walked when it is long.
      expect(guard && { cap: guard.cap, every: guard.everyList, walk: guard.walk.walk }, dialect.name).to.deep.equal(
        dialect === mysql ? { cap: 20_000, every: true, walk: 'scalar' } : undefined,
      )
      expect(broad.conditions?.toldLists?.length ?? 0, dialect.name).to.equal(dialect === mysql ? 1 : 0)
    }
    const lite = planOf(sqlite, broadRequest)
    expect(lite.page.guard?.walk.toldLists?.[0], "SQLite's guard is a probed list's (below)").to.equal(undefined)
    expect(lite.conditions?.toldLists?.[0]).to.equal(lite.query.wheres[0]?.condition)
    expect(planOf(sqlite, 'orders[0][column]=id&limit=20').conditions).to.equal(undefined)
  })

  it('SQLite probes the key list of one relation filter a walk tests per base row; not where the walk is short', () => {
    const request = (wheres: string, orders = 'orders[0][column]=id&limit=20') => `${wheres}&${orders}`
    const rare = 'wheres[0][column]=comments.body&wheres[0][value]=x'
    const plan = planOf(
      sqlite,
      request(`${rare}&wheres[1][column]=title&wheres[1][operator]=like&wheres[1][value]=a%25`),
    )
    const filter = plan.query.wheres.find(({ condition }) => condition.kind === 'exists')?.condition
    if (filter?.kind !== 'exists' || filter.inner === null) throw new Error('a relation filter expected')
    expect(plan.conditions?.toldLists?.[0]).to.equal(filter)
    expect(plan.conditions?.relationForm(filter.inner, true, false), 'the listing form').to.equal('in')
    expect(plan.page.guard?.walk.relationForm(filter.inner, true, false), 'the walking form').to.equal('exists')
    expect(plan.page.guard && { cap: plan.page.guard.cap, at: plan.page.guard.at }).to.deep.equal({
      cap: 1000,
      at: 'limit',
    })
    const like = 'wheres[0][column]=comments.body&wheres[0][operator]=like&wheres[0][value]=a%25'
    const equal = 'wheres[1][column]=comments.body&wheres[1][value]=b'
    const both = planOf(sqlite, request(`${like}&${equal}`))
    expect(both.conditions?.toldLists?.[0], 'of two, the equality').to.equal(both.query.wheres[1]?.condition)
    const firstOr = planOf(sqlite, request(`${rare}&wheres[0][boolean]=or`))
    expect(firstOr.conditions?.toldLists?.[0], "the first where's boolean joins it to nothing").to.equal(
      firstOr.query.wheres[0]?.condition,
    )
    const through = planOf(sqlite, request('wheres[0][column]=author.name&wheres[0][value]=x'))
    expect(through.page.guard, 'a to-one filter').to.equal(undefined)
    for (const [name, wheres, orders] of [
      ['an equality on a base column', `${rare}&wheres[1][column]=user_id&wheres[1][value]=1`, undefined],
      ['an `or`', `${rare}&wheres[1][column]=title&wheres[1][value]=y&wheres[1][boolean]=or`, undefined],
      ['a filter listed anyway', `${rare}&wheres[1][column]=tags.name&wheres[1][value]=t`, undefined],
      ['no limit', rare, 'orders[0][column]=id'],
      ['an order by an aggregate', rare, 'orders[0][column]=commentsCount&limit=20'],
    ] as const) {
      const other = planOf(sqlite, request(wheres, orders), orders?.includes('limit') ?? true)
      expect(other.conditions?.toldLists?.[0], name).to.equal(undefined)
    }
    const thenCount = planOf(sqlite, request(rare, 'orders[0][column]=title&orders[1][column]=commentsCount&limit=20'))
    expect(thenCount.conditions?.toldLists?.[0], 'a later order by an aggregate').to.equal(
      thenCount.query.wheres[0]?.condition,
    )
    expect(thenCount.page.correlatedOrder, 'its aggregates correlated in either form').to.deep.equal({
      rows: Number.POSITIVE_INFINITY,
      kept: false,
    })
    expect(planOf(postgres, request(rare)).conditions?.toldLists?.[0], 'PostgreSQL').to.equal(undefined)
    expect(planOf(mysql, request(rare)).page.guard?.cap, 'MariaDB walks a long list instead (below)').to.equal(20_000)
  })

  it('groups an aggregate order by +key on SQLite, not where the wheres keep few rows by declaration', () => {
    const byCount = 'orders[0][column]=commentsCount&limit=20'
    expect(planOf(sqlite, byCount).page.groupedScan).to.equal(true)
    expect(planOf(sqlite, `wheres[0][column]=id&wheres[0][value]=3&${byCount}`).page.groupedScan).to.equal(false)
    const either = `wheres[0][column]=id&wheres[0][value]=3&wheres[1][column]=title&wheres[1][value]=x&wheres[1][boolean]=or&${byCount}`
    expect(planOf(sqlite, either).page.groupedScan, 'an or').to.equal(true)
    expect(planOf(postgres, byCount).page.groupedScan).to.equal(false)
    expect(planOf(mysql, byCount).page.groupedScan).to.equal(false)
  })

  it("writes each relation filter in the dialect's form: SQLite by selectivity, the walking form always correlated", () => {
    const plan = planOf(sqlite, 'wheres[0][column]=tags.kind&wheres[0][value]=x&orders[0][column]=id&limit=20')
    const query = validateQueryParams(
      parseQueryParams('wheres[0][column]=tags.kind&wheres[0][value]=x&wheres[1][column]=tags.name&wheres[1][value]=y'),
      'rp_posts',
      map,
      APPLY_DEFAULTS,
    )
    const [broad, selective] = query.wheres.map(({ condition }) => condition)
    if (broad?.kind !== 'exists' || broad.inner === null || selective?.kind !== 'exists' || selective.inner === null)
      throw new Error('two relation filters expected')
    expect(plan.conditions?.relationForm(broad.inner, true, false)).to.equal('exists')
    expect(plan.conditions?.relationForm(selective.inner, true, false)).to.equal('in')
    expect(plan.conditions?.relationForm(broad.inner, true, true), 'under a to-many hop').to.equal('in')
    expect(plan.plain.relationForm(broad.inner, true, false), 'search, orders, aggregates').to.equal('in')
    expect(planOf(mysql, TAGGED).conditions?.relationForm(broad.inner, true, false)).to.equal('in')
    expect(planOf(postgres, TAGGED).conditions?.relationForm(selective.inner, true, false)).to.equal('exists')
    expect(planOf(sqlite, TAGGED).page.guard?.walk.relationForm(selective.inner, true, false)).to.equal('exists')
    expect(planOf(mysql, TAGGED).plain.bare).to.equal('scalar')
    expect(planOf(postgres, TAGGED).plain.bare).to.equal('exists')
  })

  it('SQLite lists a broad relation filter of a page ordered by an aggregate first: no walk stops early there', () => {
    const broad = 'wheres[0][column]=comments.body&wheres[0][operator]=like&wheres[0][value]=a%25'
    const query = validateQueryParams(parseQueryParams(broad), 'rp_posts', map, APPLY_DEFAULTS)
    const filter = query.wheres[0]?.condition
    if (filter?.kind !== 'exists' || filter.inner === null) throw new Error('a relation filter expected')
    const inner = filter.inner
    const formOf = (request: string) =>
      planOf(sqlite, `${broad}&${request}`).conditions?.relationForm(inner, true, false)
    expect(formOf('orders[0][column]=commentsCount&limit=20'), 'a count first').to.equal('in')
    expect(formOf('orders[0][column]=id&orders[1][column]=commentsCount&limit=20'), 'a column first').to.equal('exists')
    expect(formOf('orders[0][column]=id&limit=20')).to.equal('exists')
  })

  it('cuts off a MariaDB or SQLite page ordered through required belongsTo hops, with the listing probe; not PostgreSQL', () => {
    const request = 'wheres[0][column]=title&wheres[0][value]=x&orders[0][column]=author.name&limit=20'
    const summary = (cutoff: ReadPlan['page']['cutoff']) =>
      cutoff && { join: cutoff.join, modifier: cutoff.selectModifier, probe: cutoff.listProbe, bound: cutoff.bound }
    const cutoff = planOf(mysql, request).page.cutoff
    expect(summary(cutoff)).to.deep.equal({
      join: 'straight_join',
      modifier: 'straight_join ',
      probe: { factor: 4, cap: 20_000 },
      bound: 'derived-row',
    })
    expect(cutoff?.order.column).to.equal('name')
    expect(planOf(postgres, request).page.cutoff).to.equal(undefined)
    expect(summary(planOf(sqlite, request).page.cutoff)).to.deep.equal({
      join: 'cross join',
      modifier: '',
      probe: { factor: 4, cap: 20_000 },
      bound: 'scalar',
    })
    expect(planOf(mysql, 'orders[0][column]=title&limit=20').page.cutoff, 'a base column').to.equal(undefined)
  })

  it('joins the required belongsTo hops of the relation filters of a MariaDB page (joinFilterHops); not elsewhere', () => {
    const request =
      'wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=x%25&wheres[1][column]=comments.body&wheres[1][value]=y&orders[0][column]=id&limit=20'
    const hops = (plan: ReadPlan): string[][] => plan.page.filterHops.map((via) => via.map((relation) => relation.name))
    expect(hops(planOf(mysql, request))).to.deep.equal([['author']])
    expect(Object.isFrozen(planOf(mysql, request).page.filterHops)).to.equal(true)
    expect(hops(planOf(sqlite, request))).to.deep.equal([])
    expect(hops(planOf(postgres, request))).to.deep.equal([])
    expect(hops(planOf(mysql, request.replace('&limit=20', ''), false)), 'not paged').to.deep.equal([])
    expect(
      hops(planOf(mysql, request.replace('orders[0][column]=id', 'orders[0][column]=author.name'))),
      'a cutoff',
    ).to.deep.equal([])
    const guarded = defineRelationMap({ ...map, rp_users: { ...map.rp_users, guard: (query) => query.where('id', 1) } })
    const query = validateQueryParams(parseQueryParams(request), 'rp_posts', guarded, APPLY_DEFAULTS)
    expect(
      planRead(query, mysql, guarded, { ref: 'rp_posts', paged: true }).page.filterHops,
      'a guarded hop',
    ).to.deep.equal([])
  })

  it('leaves out a relationsExists that holds by declaration: required belongsTo hops to unguarded tables', () => {
    const held = planOf(sqlite, 'relationsExists[0]=author&orders[0][column]=id&limit=20')
    expect(held.query.exists).to.deep.equal([])
    expect(held.conditions, 'no condition left to write').to.equal(undefined)
    const kept = planOf(mysql, 'relationsExists[0]=author&relationsExists[1]=comments&limit=20')
    expect(kept.query.exists.map((condition) => condition.kind === 'exists' && condition.relation.name)).to.deep.equal([
      'comments',
    ])
    const guarded = defineRelationMap({ ...map, rp_users: { ...map.rp_users, guard: (query) => query.where('id', 1) } })
    const query = validateQueryParams(
      parseQueryParams('relationsExists[0]=author'),
      'rp_posts',
      guarded,
      APPLY_DEFAULTS,
    )
    expect(
      planRead(query, postgres, guarded, { ref: 'rp_posts', paged: false }).query.exists,
      'a guard',
    ).to.have.length(1)
    const filtered = planOf(postgres, 'wheres[0][column]=author.name&wheres[0][value]=x')
    expect(filtered.query.wheres, 'a relation filter with a condition').to.have.length(1)
  })

  it('probes the rows of a page ordered by an aggregate on SQLite and PostgreSQL, 5,000 at most; not on MariaDB', () => {
    const byAggregate = 'wheres[0][column]=title&wheres[0][value]=x&orders[0][column]=commentsCount&limit=20'
    expect(planOf(sqlite, byAggregate).page.correlatedOrder).to.deep.equal({ rows: 5000, kept: false })
    expect(planOf(postgres, byAggregate).page.correlatedOrder).to.deep.equal({ rows: 5000, kept: false })
    const descending = `${byAggregate}&orders[0][direction]=desc`
    expect(planOf(sqlite, descending).page.correlatedOrder, 'SQLite: kept groups').to.deep.equal({
      rows: 5000,
      kept: true,
    })
    expect(planOf(postgres, descending).page.correlatedOrder).to.deep.equal({ rows: 5000, kept: false })
    const oneRow = 'wheres[0][column]=id&wheres[0][value]=3&orders[0][column]=commentsCount&limit=20'
    for (const dialect of [sqlite, postgres, mysql])
      expect(planOf(dialect, oneRow).page.correlatedOrder, `${dialect.name}: one row by declaration`).to.deep.equal({
        rows: Number.POSITIVE_INFINITY,
        kept: false,
      })
    expect(planOf(mysql, byAggregate).page.correlatedOrder, 'MariaDB splits the grouped join by key').to.equal(
      undefined,
    )
    expect(planOf(sqlite, byAggregate, false).page.correlatedOrder, 'no limit').to.equal(undefined)
    expect(planOf(sqlite, 'orders[0][column]=title&with[0]=commentsCount&limit=20').page.correlatedOrder).to.equal(
      undefined,
    )
    const second = 'orders[0][column]=title&orders[1][column]=commentsCount&limit=20'
    expect(planOf(postgres, second).page.correlatedOrder, 'a later order, without a probe').to.deep.equal({
      rows: Number.POSITIVE_INFINITY,
      kept: false,
    })
    expect(planOf(sqlite, TAGGED.replace('=id', '=commentsCount')).page.correlatedOrder, 'guarded').to.equal(undefined)
  })

  it('correlates without a probe a page whose first order is a column, or whose where tests another aggregate', () => {
    const testsCount = 'wheres[0][column]=comments_count&wheres[0][operator]=%3E&wheres[0][value]=2&limit=20'
    const always = { rows: Number.POSITIVE_INFINITY, kept: false }
    expect(
      planOf(sqlite, 'orders[0][column]=title&orders[1][column]=tagsCount&limit=20').page.correlatedOrder,
    ).to.deep.equal(always)
    expect(planOf(postgres, `${testsCount}&orders[0][column]=tagsCount`).page.correlatedOrder).to.deep.equal(always)
    expect(
      planOf(sqlite, `${testsCount}&orders[0][column]=commentsCount`).page.correlatedOrder,
      'the aggregate the page is ordered by reads its grouped join: the probe chooses',
    ).to.deep.equal({ rows: 5000, kept: false })
    expect(planOf(mysql, `${testsCount}&orders[0][column]=tagsCount`).page.correlatedOrder).to.equal(undefined)
  })

  it('MariaDB cuts off a first order by a base column when a later one joins, walking the later hops', () => {
    const byIdThenAuthor = 'orders[0][column]=user_id&orders[1][column]=author.name&limit=20'
    const cutoff = planOf(mysql, byIdThenAuthor).page.cutoff
    expect(cutoff?.order.column).to.equal('user_id')
    expect(cutoff?.hops.map((via) => via.map((relation) => relation.name))).to.deep.equal([['author']])
    // A later base column: cut off under column tests only, unless the index on the first column yields the order.
    const byUserThenTitle = 'orders[0][column]=user_id&orders[1][column]=title&limit=20'
    expect(planOf(mysql, byUserThenTitle).page.cutoff?.hops, 'a later base column').to.deep.equal([])
    expect(
      planOf(mysql, `wheres[0][column]=tags.name&wheres[0][value]=t&${byUserThenTitle}`).page.cutoff,
      'a relation filter',
    ).to.equal(undefined)
    expect(
      planOf(mysql, 'orders[0][column]=user_id&orders[1][column]=id&limit=20').page.cutoff,
      'the key in the same direction',
    ).to.equal(undefined)
    expect(
      planOf(mysql, 'orders[0][column]=user_id&orders[1][column]=id&orders[1][direction]=desc&limit=20').page.cutoff
        ?.order.column,
      'the key in the other direction',
    ).to.equal('user_id')
    expect(planOf(mysql, `wheres[0][column]=id&wheres[0][value]=3&${byIdThenAuthor}`).page.cutoff, 'one row').to.equal(
      undefined,
    )
    expect(planOf(sqlite, byIdThenAuthor).page.cutoff).to.equal(undefined)
  })

  it('MariaDB reads a where on another aggregate of a page ordered by an aggregate from a grouped join', () => {
    const testsCount = 'wheres[0][column]=comments_count&wheres[0][operator]=%3E&wheres[0][value]=2&limit=20'
    const joined = planOf(mysql, `${testsCount}&orders[0][column]=tagsCount`).page.joinedTests
    expect(joined.map((aggregate) => aggregate.key)).to.have.length(1)
    expect(planOf(mysql, `${testsCount}&orders[0][column]=id`).page.joinedTests, 'a page by a column').to.deep.equal([])
    expect(planOf(sqlite, `${testsCount}&orders[0][column]=tagsCount`).page.joinedTests).to.deep.equal([])
  })

  it("defers a page from the dialect's offset, a page with aggregates from PostgreSQL's lower one, and a page ordered by an aggregate from MariaDB's first page", () => {
    expect(planOf(mysql, TAGGED).page.deferFrom).to.equal(300)
    expect(planOf(sqlite, TAGGED).page.deferFrom).to.equal(1000)
    expect(planOf(postgres, TAGGED).page.deferFrom).to.equal(undefined)
    expect(planOf(postgres, 'with[0]=commentsCount&orders[0][column]=id&limit=20').page.deferFrom).to.equal(100)
    expect(planOf(mysql, 'with[0]=commentsCount&orders[0][column]=id&limit=20').page.deferFrom).to.equal(300)
    const byAggregate = 'with[0]=commentsCount&orders[0][column]=commentsCount&limit=20'
    expect(planOf(mysql, byAggregate).page.deferFrom, 'ordered by the one aggregate it selects').to.equal(0)
    expect(planOf(mysql, `${byAggregate}&with[1]=commentsExists`).page.deferFrom, 'and another').to.equal(0)
    expect(planOf(mysql, 'orders[0][column]=commentsCount&limit=20').page.deferFrom, 'selecting none').to.equal(0)
    expect(planOf(postgres, byAggregate).page.deferFrom, 'PostgreSQL: from its aggregate offset').to.equal(100)
    expect(planOf(sqlite, 'orders[0][column]=commentsCount&limit=20').page.deferFrom).to.equal(1000)
    expect(planOf(postgres, `${byAggregate}&with[1]=commentsExists`).page.deferFrom).to.equal(100)
  })
})
