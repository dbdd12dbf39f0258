import { expect } from 'chai'
import knex from 'knex'
import type { Knex } from 'knex'
import { applyQueryParams, parseQueryParams } from '../../lib/index.ts'
import type { Dialect } from '../../lib/dialect/dialect.ts'
import { dialectOf, useDialect } from '../../lib/dialect/dialect-of.ts'
import type { RelationMap } from '../../lib/relation-map.ts'
import { idsOf, rowsOf } from '../support/apply-query.ts'
import { countQueries } from '../support/count-queries.ts'
import { pgliteDatabase, testDatabases } from '../support/databases.ts'
import { createPageDataSet, dropPageDataSet, pageMap } from '../apply/support/page-data-set.ts'

/**
 * Every choice a dialect makes by a flag, turned on (and off) on every database: the SQL each value writes runs
 * there and returns the rows of the dialect's own choice. Forms a database cannot run are not values its
 * dialect's type allows (`topPerParent: 'lateral'` only on PostgreSQL; see spec/types/dialect-flags.ts).
 */

/** {@link pageMap} with top-N relations (`limit` + `orders`) and a hasOne, for `topPerParent`. */
const map: RelationMap = {
  ...pageMap,
  pg_users: {
    ...pageMap.pg_users,
    relations: {
      ...pageMap.pg_users.relations,
      posts: { type: 'hasMany', table: 'pg_posts', foreignKey: 'user_id' },
      newestPosts: {
        type: 'hasMany',
        table: 'pg_posts',
        foreignKey: 'user_id',
        limit: 3,
        orders: [{ column: 'created_at', direction: 'desc' }],
      },
      firstPost: { type: 'hasOne', table: 'pg_posts', foreignKey: 'user_id' },
    },
    aggregates: { postsNewest: { relation: 'posts', fn: 'max', column: 'created_at' } },
  },
}

interface FlagCase {
  /** The request on `table`, and a form its SQL (any statement that ran) must show. */
  table: string
  request: string
  shows: RegExp
  /** A form the SQL must not show. */
  hides?: RegExp
}

const DEEP_PAGE =
  'orders[0][column]=created_at&orders[0][direction]=desc&wheres[0][column]=kind&wheres[0][operator]=in&wheres[0][value][0]=note&wheres[0][value][1]=review&wheres[1][column]=tags.name&wheres[1][operator]=in&wheres[1][value][0]=tag 2&wheres[1][value][1]=tag 5&limit=20&offset=140'
const BY_AUTHOR = 'orders[0][column]=author.name&orders[0][direction]=desc&orders[1][column]=title&limit=17&page=3'
const CREATED_BY_AUTHOR =
  'orders[0][column]=created_at&orders[0][direction]=desc&orders[1][column]=author.name&wheres[0][column]=author.name&wheres[0][operator]=like&wheres[0][value]=user%25&limit=7&page=3'
const BY_TEAM =
  'orders[0][column]=author.team.name&orders[1][column]=title&wheres[0][column]=kind&wheres[0][value]=review&limit=10&page=2'
const OR_BY_AUTHOR =
  'wheres[0][column]=tags.name&wheres[0][operator]=like&wheres[0][value]=tag 3%&wheres[1][column]=kind&wheres[1][value]=rare&wheres[1][boolean]=or&orders[0][column]=author.name&orders[1][column]=title&limit=10&page=2'
const BARE =
  'relationsExists[0]=editor&relationsExists[1]=tags&with[0]=tagsExists&orders[0][column]=id&limit=30&offset=5'
const FILTERED =
  'wheres[0][column]=author.team.name&wheres[0][operator]=in&wheres[0][value][0]=team 2&wheres[0][value][1]=team 3&wheres[1][column]=editor.name&wheres[1][operator]=like&wheres[1][value]=user 1%&orders[0][column]=id&limit=25'
const ONE_TAG = 'wheres[0][column]=tags.name&wheres[0][value]=tag 3&orders[0][column]=id&limit=20'
const TOP = 'with[0]=newestPosts&with[1]=firstPost&orders[0][column]=id&limit=12'
/** Users named `user 3` (5 of 60), ordered by an aggregate and through a relation, with two aggregates. */
const BY_AGGREGATE =
  'wheres[0][column]=name&wheres[0][value]=user 3&orders[0][column]=postsNewest&orders[0][direction]=desc&orders[1][column]=team.name&with[0]=postsNewest&with[1]=postsCount&limit=2&page=2'

/** Users with at least one post, by their newest post: a where on one aggregate, an order by another. */
const TESTS_AGGREGATE =
  'wheres[0][column]=posts_count&wheres[0][operator]=>=&wheres[0][value]=1&orders[0][column]=postsNewest&orders[0][direction]=desc&limit=5&page=2'

/** Users named `user…` by their post count, descending: most have posts. */
const BY_COUNT_DESC =
  'wheres[0][column]=name&wheres[0][operator]=like&wheres[0][value]=user%25&orders[0][column]=postsCount&orders[0][direction]=desc&limit=3&page=2'

/** Flags of a dialect to change; `undefined` turns an optional one off. */
type FlagChange = { [Flag in keyof Dialect]?: Dialect[Flag] | undefined }

/** Each flag value, the request that shows it, and what its SQL looks like. */
const FLAGS: Array<{ name: string; change: FlagChange; cases: FlagCase[]; only?: Dialect['name'] }> = [
  {
    name: 'deferredPageOffset: 0',
    change: { deferredPageOffset: 0, cutoffJoinedOrder: false },
    cases: [{ table: 'pg_posts', request: DEEP_PAGE, shows: /kqp_page/ }],
  },
  {
    name: 'correlatedAggregateOrder: rows 10, a page of fewer rows orders by correlated aggregates',
    change: { correlatedAggregateOrder: { rows: 10 } },
    cases: [
      {
        table: 'pg_users',
        request: BY_AGGREGATE,
        // The statement after the probe (the last is the test's own run of toSQL(), the grouped form).
        shows: /kqp_frequent\n[^\n]* order by \(select max\([^\n]* group by [^\n)]*\) desc( nulls last)?, \(select /,
        hides: /kqp_frequent\n[^\n]*kqp_aggregate/,
      },
    ],
  },
  {
    name: 'correlatedAggregateOrder: rows 3, a page of more rows keeps the grouped join',
    change: { correlatedAggregateOrder: { rows: 3 } },
    cases: [
      { table: 'pg_users', request: BY_AGGREGATE, shows: /kqp_frequent\n[^\n]*left join \(select [^\n]*kqp_aggregate/ },
    ],
  },
  {
    name: 'correlatedAggregateOrder: keptGroups, a page by a count, descending, inner-joins the groups it finds',
    change: { correlatedAggregateOrder: { rows: 3, keptGroups: true } },
    cases: [
      {
        table: 'pg_users',
        request: BY_COUNT_DESC,
        shows: /then 2 else 1 end\) as kqp_frequent\n[^\n]*inner join \(select [^\n]*count\(\*\)/,
      },
    ],
  },
  {
    name: 'correlatedAggregateOrder: none, no probe',
    change: { correlatedAggregateOrder: undefined },
    cases: [{ table: 'pg_users', request: BY_AGGREGATE, shows: /kqp_aggregate/, hides: /kqp_frequent/ }],
  },
  {
    name: 'inlinePage: true',
    change: { inlinePage: true },
    cases: [
      { table: 'pg_posts', request: 'orders[0][column]=id&limit=5&page=3', shows: /order by .* limit 5 offset 10$/ },
    ],
  },
  {
    name: 'inlinePage: false',
    change: { inlinePage: false },
    cases: [
      {
        table: 'pg_posts',
        request: 'orders[0][column]=id&limit=5&page=3',
        shows: /order by .* limit (\?|\$\d+) offset (\?|\$\d+)$/,
      },
    ],
  },
  {
    name: 'deferredPageOffset: none',
    change: { deferredPageOffset: undefined },
    cases: [{ table: 'pg_posts', request: DEEP_PAGE, shows: /offset/, hides: /kqp_page/ }],
  },
  {
    name: 'cutoffJoinedOrder: true',
    change: { cutoffJoinedOrder: true },
    cases: [
      { table: 'pg_posts', request: BY_AUTHOR, shows: /coalesce\(/ },
      { table: 'pg_posts', request: BY_TEAM, shows: /coalesce\(/ },
    ],
  },
  {
    name: 'cutoffJoinedOrder: false',
    change: { cutoffJoinedOrder: false },
    cases: [{ table: 'pg_posts', request: BY_AUTHOR, shows: /order by/, hides: /coalesce\(/ }],
  },
  {
    name: 'cutoffColumnOrder: true, a first order by a base column cut off when a later one joins',
    change: { cutoffJoinedOrder: true, cutoffColumnOrder: true },
    cases: [{ table: 'pg_posts', request: CREATED_BY_AUTHOR, shows: /kqp_cutoff|<= coalesce\(|>= coalesce\(/ }],
  },
  {
    name: 'cutoffColumnOrder: false',
    change: { cutoffColumnOrder: false },
    cases: [
      { table: 'pg_posts', request: CREATED_BY_AUTHOR, shows: /order by/, hides: /kqp_cutoff|coalesce\(\(select/ },
    ],
  },
  {
    name: "joinedAggregateTests: true, a where on another aggregate reads a grouped join (the order's, over the same posts)",
    change: { joinedAggregateTests: true, correlatedAggregateOrder: undefined },
    cases: [
      {
        table: 'pg_users',
        request: TESTS_AGGREGATE,
        shows: /where \(coalesce\([`"]kqp_aggregate[`"]\.[`"]kqp_value_2[`"], 0\) >= /,
      },
    ],
  },
  {
    name: 'joinedAggregateTests: false',
    change: { joinedAggregateTests: false, correlatedAggregateOrder: undefined },
    cases: [
      { table: 'pg_users', request: TESTS_AGGREGATE, shows: /where \(\(select count\(\*\)/, hides: /kqp_aggregate_2/ },
    ],
  },
  {
    name: 'cutoffBranches: true, each branch of an `or` cut off or listed on its own',
    change: { cutoffJoinedOrder: true, cutoffListGuard: { factor: 4, cap: 20_000 }, cutoffBranches: true },
    cases: [{ table: 'pg_posts', request: OR_BY_AUTHOR, shows: /kqp_cut\W/ }],
  },
  {
    name: 'cutoffBranches: false, one cutoff over the `or`',
    change: { cutoffJoinedOrder: true, cutoffListGuard: { factor: 4, cap: 20_000 }, cutoffBranches: false },
    cases: [{ table: 'pg_posts', request: OR_BY_AUTHOR, shows: /coalesce\(/, hides: /kqp_cut\W|kqp_branch/ }],
  },
  {
    name: "bareRelation: 'scalar'",
    change: { bareRelation: 'scalar' },
    cases: [{ table: 'pg_posts', request: BARE, shows: /limit 1\) is not null/, hides: /exists \(/ }],
  },
  {
    name: "bareRelation: 'exists'",
    change: { bareRelation: 'exists' },
    cases: [{ table: 'pg_posts', request: BARE, shows: /exists \(/, hides: /is not null/ }],
  },
  {
    name: "filteredRelation: 'exists'",
    change: { filteredRelation: 'exists' },
    cases: [{ table: 'pg_posts', request: FILTERED, shows: /exists \(/ }],
  },
  {
    name: "filteredRelation: 'in'",
    change: { filteredRelation: 'in' },
    cases: [{ table: 'pg_posts', request: FILTERED, shows: / in \(select /, hides: /exists \(/ }],
  },
  {
    name: "filteredRelation: 'by-selectivity'",
    change: { filteredRelation: 'by-selectivity', joinFilterHops: false },
    cases: [{ table: 'pg_posts', request: FILTERED, shows: / in \(select / }],
  },
  {
    name: 'joinFilterHops: true',
    change: { joinFilterHops: true },
    cases: [{ table: 'pg_posts', request: FILTERED, shows: / inner join .pg_teams. on / }],
  },
  {
    name: 'joinFilterHops: false',
    change: { joinFilterHops: false },
    cases: [{ table: 'pg_posts', request: FILTERED, shows: /order by/, hides: / inner join / }],
  },
  {
    name: "keyFirstRelation: 'always'",
    change: { keyFirstRelation: 'always', frequencyGuard: undefined },
    cases: [{ table: 'pg_posts', request: ONE_TAG, shows: /= \(select /i }],
  },
  {
    name: "keyFirstRelation: 'where-it-orders'",
    change: { keyFirstRelation: 'where-it-orders', frequencyGuard: undefined },
    cases: [
      {
        table: 'pg_posts',
        request: ONE_TAG.replace('orders[0][column]=id', 'orders[0][column]=title'),
        shows: /order by/,
        hides: /= \(select /i,
      },
    ],
  },
  {
    name: "frequencyGuard at: 'limit', walking form by scalar probes",
    change: {
      keyFirstRelation: 'always',
      frequencyGuard: { cap: 3, at: 'limit', walkProbe: 'scalar', orderedPivotServes: false, fencedList: false },
    },
    only: 'sqlite',
    cases: [
      {
        table: 'pg_posts',
        request: ONE_TAG.replace('orders[0][column]=id', 'orders[0][column]=title'),
        shows: /kqp_frequent[\s\S]*union all/,
      },
    ],
  },
  {
    name: "frequencyGuard at: 'where', walking form key first",
    change: {
      frequencyGuard: { cap: 3, at: 'where', walkProbe: 'exists', orderedPivotServes: false, fencedList: false },
    },
    cases: [
      {
        table: 'pg_posts',
        request: ONE_TAG.replace('orders[0][column]=id', 'orders[0][column]=title'),
        shows: /kqp_frequent[\s\S]*union all/,
      },
    ],
  },
  {
    name: 'frequencyGuard fencedList: the listing form read after the probe is fenced',
    change: {
      keyFirstRelation: 'where-it-orders',
      frequencyGuard: { cap: 1000, at: 'where', walkProbe: 'exists', orderedPivotServes: false, fencedList: true },
    },
    only: 'postgres',
    cases: [
      {
        table: 'pg_posts',
        request: ONE_TAG.replace('orders[0][column]=id', 'orders[0][column]=title'),
        shows: /kqp_frequent[\s\S]*in \(select .* offset 0\)\)[\s\S]*union all/,
      },
    ],
  },
  {
    name: "topPerParent: 'window'",
    change: { topPerParent: 'window' },
    cases: [{ table: 'pg_users', request: TOP, shows: /row_number\(\) over \(partition by/ }],
  },
  {
    name: "topPerParent: 'lateral'",
    change: { topPerParent: 'lateral' },
    only: 'postgres',
    cases: [{ table: 'pg_users', request: TOP, shows: /cross join lateral/ }],
  },
]

for (const db of testDatabases()) {
  describe(`every dialect flag runs on its database (${db.name})`, function () {
    this.timeout(120_000)
    const own = dialectOf(db.knex.client)
    let flagged: Knex

    // Awaited and as its toSQL(): a guarded page is two statements when awaited (its probe, then one form) and
    // the one statement of both forms in toSQL() (and a stream); both must run and give the rows.
    const run = async (
      table: string,
      request: string,
      dialect: Dialect,
    ): Promise<{ rows: unknown[]; compiled: number[]; sql: string[] }> => {
      useDialect(flagged.client as Knex.Client, dialect)
      const query = applyQueryParams(flagged(table), parseQueryParams(request), map, {
        maxEagerRows: 100_000,
        frequencyMemoMs: 0,
      })
      const { result, queries } = await countQueries(flagged, async () => {
        const rows = rowsOf(await query)
        const { sql, bindings } = query.toSQL()
        const raw: unknown = await flagged.raw(sql, bindings)
        const compiled = idsOf(
          db.name === 'postgres'
            ? (raw as { rows: unknown[] }).rows
            : db.name === 'mysql'
              ? (raw as unknown[])[0]
              : raw,
        )
        return { rows, compiled }
      })
      return { ...result, sql: queries.map((statement) => statement.sql) }
    }

    before(async () => {
      // A knex instance of its own (a configuration of its own) on the same server, so its dialect can change;
      // SQLite and PGlite in memory are a database per instance.
      flagged = db.engine === 'pglite' ? pgliteDatabase().knex : knex({ ...(db.knex.client as Knex.Client).config })
      await createPageDataSet(flagged)
    })

    after(async () => {
      await dropPageDataSet(flagged)
      await flagged.destroy()
    })

    for (const flag of FLAGS) {
      if (flag.only !== undefined && flag.only !== db.name) continue
      it(`${flag.name}: its SQL runs and returns the rows of the dialect's own choice`, async () => {
        const changed = { ...own, ...flag.change } as Dialect
        for (const { table, request, shows, hides } of flag.cases) {
          const expected = await run(table, request, own)
          const actual = await run(table, request, changed)
          const text = actual.sql.join('\n')
          expect(text, request).to.match(shows)
          if (hides !== undefined) expect(text, request).not.to.match(hides)
          expect(actual.rows.length, request).to.be.greaterThan(0)
          expect(actual.rows, request).to.deep.equal(expected.rows)
          expect(actual.compiled, request).to.deep.equal(idsOf(expected.rows))
        }
      })
    }
  })
}
