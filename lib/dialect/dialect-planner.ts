import type { DialectName } from './dialect-name.ts'

/**
 * How a dialect guards a page by the frequency of a key (see `Dialect.frequencyGuard`). `at: 'limit'` puts the
 * probe in each form's `limit`, which only SQLite accepts (PostgreSQL and MariaDB want a number there).
 */
export interface FrequencyGuard<Name extends DialectName = DialectName> {
  readonly cap: number
  readonly at: Name extends 'sqlite' ? 'limit' | 'where' : 'where'
  readonly walkProbe: 'exists' | 'scalar' | 'scalar-to-one'
  readonly orderedPivotServes: boolean
  readonly fencedList: Name extends 'postgres' ? boolean : false
}

/**
 * Planner choices: which form of a read this database runs fastest, each measured (BENCHMARKS.md); read by the read
 * plan (`lib/plan/`) and, for the top N per parent, by eager loading.
 * Part of `Dialect`; `Name` narrows what a database cannot honour.
 */
export interface DialectPlanner<Name extends DialectName = DialectName> {
  /**
   * How a relation filter whose related rows must meet a condition is written: a correlated `exists`,
   * `key in (select …)`, or `by-selectivity`, chosen per condition: `in` when the related condition is
   * selective by declaration (equality or `in` on a primary key or `unique` column, through any hops) or the
   * query has no limit, else `exists`. Bare existence (`relationsExists` without a condition) is written as
   * {@link bareRelation} says. Chosen by measurement (`bench/filter-forms.ts`, figures 3 and 6): SQLite runs
   * a correlated `exists` once per base row but stops when a page is full, while it builds the `in` list
   * whole before returning a row; MariaDB does not flatten nested `exists`, and builds the `in` list once
   * from an index; PostgreSQL plans both forms as the same semi-join.
   */
  readonly filteredRelation: 'exists' | 'in' | 'by-selectivity'
  /**
   * How bare existence (`relationsExists`, a relation without a condition) is written: a correlated `exists`,
   * or `(select 1 … limit 1) is not null`, the same test as a scalar subquery. MariaDB turns a correlated
   * `exists` into an `in` semi-join and materialises every key of the related table first (3 s against
   * 0.09 s for 20 posts that have tags, 1,000,000 links); it evaluates the scalar form per row, stopping at
   * the first related row.
   */
  readonly bareRelation: 'exists' | 'scalar'
  /**
   * How a test of a declared `min` or `max` against a bound is written: as tests of whether related rows reach the
   * bound, which stop at the first such row and need no index on the column (`max(views) >= ?` is "some post has
   * `views >= ?`"; `max(views) < ?` is "some post has views, and none has `views >= ?`"). `some` is the form of the
   * first kind, `none` of the second (and of its "has views"): a correlated `exists`, or the scalar probe
   * `(select 1 … limit 1) is not null` (`is null` for none). Users by `created_at`, page 10 of 20, over 60,000 users
   * and 600,000 posts indexed on `(user_id)` and `(views)` (milliseconds; `max(…)` the aggregate's own subquery):
   *
   * | test | max(…) PG / MariaDB / SQLite | exists | scalar |
   * |---|---|---|---|
   * | `max >= 1000` | 48 / 36 / 16 | 12 / 899 / 4 | 14 / 27 / 4 |
   * | `max >= 99715` | 91 / 146 / 136 | 7 / 5 / 107 | 462 / 140 / 101 |
   * | `max < 1000` | 588 / 890 / 902 | 71 / 235 / 46 | 99 / 546 / 42 |
   * | `max < 99715` | 25 / 30 / 8 | 15 / 103 / 6 | 32 / 30 / 6 |
   *
   * MariaDB turns `exists` into a semi-join that lists every matching post first (the second column's 899 ms),
   * and `not exists` into an anti-join over a hashed list, which beats reading each user's posts when few users
   * pass. Other tests of a `min` or `max` (`!=`, `in`, `not between`, `null`) keep the aggregate's subquery.
   */
  readonly extremeTest: { readonly some: 'exists' | 'scalar'; readonly none: 'exists' | 'scalar' }
  /**
   * How a relation filter's `key in (select …)` list is written inside the subquery of a to-many relation filter
   * (`tags.posts.cover.url`: the posts of a post's tags): as is (`'flat'`), or as the rows of a `select distinct`
   * derived table (`'distinct'`, MariaDB). MariaDB flattens nested `in` lists into one semi-join and materialises
   * the join of every level before removing duplicates: images → pivot → tags → pivot, 414 pivot rows per tag, ran
   * over 30 s for a page of posts whose tags' posts have a `delta%` cover (issue 35's two-tenant data, 120k posts);
   * a `distinct` derived table is materialised on its own, each key once: 0.48 s. SQLite builds each list on its own
   * already, and PostgreSQL writes correlated tests there.
   */
  readonly listUnderMany: 'flat' | 'distinct'
  /**
   * When a relation filter whose related rows are one row by declaration (equality on the related table's
   * primary key or a `unique` column) is written key first: the key found by a scalar subquery, then compared
   * with the column referencing it (`post_tag.tag_id = (select id from tags where name = ?)`), so the planner
   * reads that column's index for one value. `'always'` (SQLite, MariaDB, which evaluates the subquery while
   * planning and estimates from the real value); or `'where-it-orders'`: only on the base table, directly, or
   * through a pivot when the page is ordered by the key the pivot references (PostgreSQL, which plans the
   * scalar key with an average estimate: the `(tag_id, post_id)` index then yields the page in order, 0.5 ms
   * against 400 ms by key, but in a deeper hop or under another order the average makes it walk the order's
   * index and probe, seconds for a rare value). Measured in figure 13.
   */
  readonly keyFirstRelation: 'always' | 'where-it-orders'
  /**
   * The frequency guard, or `undefined` for none. A page filtered through a relation whose related row is one
   * row by declaration (see {@link keyFirstRelation}) is best read by listing the key's related rows and
   * sorting them when the key has few, and by walking the page's order and probing when it has many (SQLite, a
   * rare tag: 0.03 ms listed, 34 ms walked; the commonest: 230 ms listed, 0.07 ms walked; figure 13). With a
   * guard, such a page is the `union all` of both forms (`lib/apply/frequency-guarded-page.ts`), where a probe for the
   * key's `cap`-th related row (`limit 1 offset cap − 1`, read in an index) lets exactly one form read rows.
   * - `at`: `'limit'` guards each form's limit (`limit case when <probe> is null then ? else 0 end`: SQLite
   *   checks a where term without columns per row); `'where'` reads each form through `select * from (…)
   *   where <probe> is null`, a test PostgreSQL and MariaDB run once, before the form starts.
   * The walking form always resolves keys first (PostgreSQL plans the scalar key with an average estimate and so
   * walks the order's index; SQLite and MariaDB read it as fast as the join form).
   * - `walkProbe`: how the walking form tests a relation: `exists`; the scalar probe `(select 1 … limit 1) is
   *   not null` (MariaDB turns `exists` into a semi-join that materialises the related keys first, and
   *   evaluates the probe per row); or the probe only for a to-one relation (SQLite turns an `exists` on the
   *   related table's key into an `in` list of every matching key, 6.6 ms against 0.05 ms for `Team 1`; a
   *   to-many `exists`, through a pivot or on a hasMany key, it reads as a semi-join, `SEARCH … EXISTS`, faster
   *   than the probe).
   * - `cap`: the related rows from which a key is frequent (the probe reads at most this many index entries).
   *   About where walking costs what listing does: 20·N/n rows probed against n rows listed and sorted. SQLite and
   *   MariaDB 1,000 (on 1M posts, figures 6 and 13); PostgreSQL 5,000: a tag on 2,000 of 2M posts was ×6 slower
   *   walked (52 against 8.7 ms listed, figure 6), its probes costing more against its listing. It does not follow
   *   the table's size (the crossover grows as √N).
   * - `orderedPivotServes`: no guard when the listing form reads a pivot's `(related, parent)` index for one
   *   key and the page is ordered by the parent's key: that index yields the page in order whatever the key's
   *   frequency (MariaDB: 0.59 ms for `tag 1` by key; SQLite still builds the whole `in` list, 43 ms).
   * - `fencedList`: the listing form, when the probe chose it, writes a filter through a pivot of the base table
   *   as `key in (select pivot.parent from pivot where pivot.related = (select …) offset 0)`: PostgreSQL plans
   *   such a subquery on its own and lists its rows first, whatever its estimate (unfenced, keys first, it plans
   *   the average key and walks the order's index: 1.2 s for `tag 1000`); 0.97 against 1.14 ms for the join
   *   form, whose three-table join costs planning time. Only there: a fenced filter through a belongsTo
   *   (`author.team.name`)
   *   became a hashed filter over a walk of the base table (0.5 s). SQLite and MariaDB have no such fence
   *   (`offset` needs a `limit` there).
   */
  readonly frequencyGuard?: FrequencyGuard<Name>
  /**
   * A walk for a listed relation filter that many related rows pass, or `undefined` for none. Where relation filters
   * are listed (`filteredRelation: 'in'`), a page that stops early (a limit, an order by columns) probes how many
   * related rows one filter's list holds (the filter chosen as `probedListFilter` chooses, within each branch of an
   * `or` read as the union of its branches): from `cap` rows, the page walks its order with every relation filter a
   * correlated test in the frequency guard's `walkProbe` form, which stops once the page is full. MariaDB builds the
   * whole list before returning a row. Users with `posts.views < ?` and `score > ?`, page 7 of 100, over 60,000 users
   * and 600,000 posts (ms, listed / walked):
   *
   * | related rows | 3,000 | 6,000 | 12,000 | 20,000 | 30,000 | 60,000 | 520,000 |
   * |---|---|---|---|---|---|---|---|
   * | by `id` | 25 / 240 | 15 / 117 | 24 / 74 | 38 / 49 | 49 / 29 | 91 / 15 | 1,334 / 44 |
   *
   * The first page by `created_at desc`, whose first 20,000 users have no posts, crosses at the same length (35 / 25 ms
   * at 20,000 related rows). The probe reads at most `cap` entries of the list, through the caller's guards. A page cut
   * off at its first order (`cutoffJoinedOrder`) is walked so only when its wheres are all relation filters: the walk
   * reads the ordered index joined, and a rare column test beside them would walk all of it.
   */
  readonly listedWalk?: { readonly cap: number }
  /**
   * The offset from which a page is read as a deferred join on the primary key (the keys of the page found
   * first, then their rows), or `undefined` to keep the plain offset. MariaDB prices skipping many entries of a
   * secondary index above a full scan and sorts the whole table (0.3–2.3 s for page 500 of 1M rows, 2–4 ms
   * deferred); SQLite reads each skipped row from the table (×1.5–2.2 at offset 9,980). Measured crossovers
   * (`bench/deferred-page-threshold.ts`): between 200 and 300 on MariaDB, between 500 and 1,000 on SQLite.
   * PostgreSQL keeps the plain offset: neither form was reliably faster there.
   */
  readonly deferredPageOffset?: number
  /**
   * The offset from which a page that selects a correlated aggregate (`with[0]=postsViewsMax`) is read as a
   * deferred page, where {@link deferredPageOffset} does not already apply. PostgreSQL computes the select list of
   * every row an offset skips: page 810 of 50 users with a `max` took 3.6 s plain against a few ms deferred, the
   * aggregate then computed for the page's 50 rows only (figure 16).
   */
  readonly deferredAggregatePageOffset?: number
  /**
   * The offset from which a page ordered by an aggregate is read as a deferred page, where the two offsets above do
   * not already apply. MariaDB sorts such a page (a join to the grouped aggregate) through a temporary table that
   * holds every row's select list: each row's selected aggregate (a correlated subquery) is computed before the page
   * is found (users ordered by `postsCount` with `postsViewsMax` selected, page 4 of 20 over 60,000 users and 600,000
   * posts: 15–16 s plain, 1.6–1.7 s deferred), and every column is sorted with it (posts by `commentsCount` with an
   * `or` of tests, page 10: 1.4–2.0 s plain, 0.33–0.4 s deferred, sorting keys only). Over the 223 requests of figure
   * 16's 1,400 with an aggregate order, summed: 35.0 s plain → 31.3 s deferred; a few pay the second read of the
   * aggregate's join for the page's rows (+0.1–0.2 s).
   */
  readonly deferredAggregateOrderPageOffset?: number
  /**
   * A page ordered by an aggregate joins the aggregate grouped over every related row (`joinAggregate`): one pass,
   * whatever the page's conditions keep. With this, the base rows its conditions (the client's and the caller's,
   * guards included) hold are first counted up to `rows` (a probe in the base table, as the cutoff's
   * `cutoffListGuard` counts), and when they hold fewer, the page orders by (and selects) each aggregate as a
   * correlated subquery, computed for those rows only. SQLite: users with `score between 13.1 and 13.3` (120 of
   * 60,000) ordered by `postsViewsMax` took 1.26 s grouped over 600,000 posts, 2.9 ms correlated; over every user
   * the correlated form was ×0.93–1.45 of the grouped one (figure 16). `undefined`: always grouped.
   */
  readonly correlatedAggregateOrder?: {
    readonly rows: number
    /**
     * Whether a page whose first order is a count or an exists, descending, is first probed for its
     * (offset + limit)-th base row that has related rows: when it has one, every row of the page has some, and the
     * page inner-joins the grouped aggregate, so the database reads the groups and the base rows they name instead of
     * every base row. SQLite: posts with `author.posts.views > ?` by `commentsCount` desc, page 2, 1.5–2.2 s →
     * 0.6–1.2 s with the probe (figure 16).
     */
    readonly keptGroups?: boolean
    /**
     * Whether a page whose first order is a NOT NULL column of the base table and whose later orders hold an aggregate
     * gets the order cutoff of {@link cutoffJoinedOrder} (its bound a walk of the column's index), and reads its
     * aggregates as correlated subqueries for the rows the cutoff keeps. SQLite reads no index in the order of a
     * column followed by a correlated subquery: it computed the aggregate for every match and sorted them all (posts
     * with `author.posts.views > ?` by `views desc, commentsCount`, page 7 of 20: 2.1 s, 2 ms cut off).
     */
    readonly cutoff?: boolean
  }
  /**
   * Whether a page whose first order is a NOT NULL column reached through inner-joined belongsTo hops gets a
   * cutoff condition (the value of the page's last row, found by an index walk of the ordered table). MySQL
   * and MariaDB cannot read an index in the order of a joined table's column and sort the whole join
   * (28 s for `order by author.name` over 1M posts); SQLite walks it only where the index and the base table's key
   * give the whole order, and sorts the whole join otherwise (`author.email, created_at`: 2.0 s over 600,000 posts
   * against 9.5 ms cut off, figure 16); PostgreSQL walks the joined table's index.
   */
  readonly cutoffJoinedOrder: boolean
  /**
   * With {@link cutoffJoinedOrder}: whether a page whose first order is a NOT NULL column of the base table, and whose
   * later orders join (a column through a relation, an aggregate's grouped join), gets the same cutoff, its bound
   * found by a walk of the column's index in the base table. MariaDB sorts the whole join as soon as an order reads a
   * joined table: posts by `created_at, author.email`, page 14 of 100, took 1.3–1.5 s sorted and 4–13 ms cut off;
   * with `author.posts.views > ?`, page 5 of 10, 1.8–2.6 s and 0.13–0.26 s (figure 16). SQLite and PostgreSQL walk the
   * column's index and sort only the rows that tie on it (SQLite not before a correlated aggregate: see
   * `correlatedAggregateOrder.cutoff`). Also when the later orders are columns of the base table and
   * the client's conditions only test its columns: MariaDB reads no index in the order of `created_at, views`, and
   * sorted every match (posts with `views > ?` by `created_at, views`, page 13 of 100: 0.65 s sorted, 11 ms cut off;
   * the 91 of figure 16's 1,400 random requests so read: 3.1 s → 0.3 s summed). Not with a relation filter, whose
   * bound walk tests it per row of the index.
   */
  readonly cutoffColumnOrder: boolean
  /**
   * How the page reads the cutoff's bound (see {@link cutoffJoinedOrder}): `derived-row` from a one-row derived
   * table joined to the page (MariaDB reads it while it plans, so the bound is a constant for the ordered column's
   * index range), `scalar` as a scalar subquery in the page's `where` (SQLite plans a range of the ordered column's
   * index for it; a derived table is joined last, after a scan and sort of the whole join).
   */
  readonly cutoffBound: 'derived-row' | 'scalar'
  /**
   * With {@link cutoffJoinedOrder}: the page's conditions are first counted up to `factor` × (offset + limit) rows,
   * at most `cap` (a probe in the base table), and when they hold fewer, the page is read base table first
   * (`orderedJoin` in the other direction) and sorted, without the cutoff. The cutoff walks the ordered table's
   * index through every row of the join when the conditions are selective: MariaDB took 3.9 s for page 17 of
   * posts `title like 'Post 3357%'` ordered by `author.email` (134 rows, 60,000 users walked twice), 0.3 s base
   * table first (figure 16). `undefined`: always the cutoff.
   */
  readonly cutoffListGuard?: { factor: number; cap: number }
  /**
   * With {@link cutoffListGuard}: a cut-off page whose where is an `or` with a relation filter is read as the union
   * of its branches, each cut off on its own and listed base table first where its own probe, tested within the
   * statement, finds few rows (see `cutBranch`). One cutoff over the `or` walks the order until enough rows meet
   * any branch: MariaDB took 2.1 s for comments with a rare `body like` or `post.views > ?` and `post.author.score
   * > ?` by `post.views` (page 2), 40 ms by branch; the nine such requests of figure 16's 1,400 took 2.5 s in all,
   * 0.2 s by branch. SQLite read them slower by branch (2.0 → 4.2 s, one from 4 ms to 2.6 s): `false`, one cutoff.
   */
  readonly cutoffBranches: boolean
  /**
   * Whether the grouped join of a page ordered by an aggregate (`joinAggregate`) groups by `+key`, so that the
   * database scans the related table and sorts its keys instead of walking the foreign key's index with a read of
   * the table per row. SQLite: users by `postsViewsMax`, grouped over 600,000 posts indexed on `(user_id)`, 1.1 s
   * walked, 0.3 s scanned and sorted; where an index covers the aggregate (`count(*)` on `(user_id)`) the sort costs
   * 60 → 100 ms.
   */
  readonly groupedJoinScan: boolean
  /**
   * Whether a page whose first order is an aggregate (its grouped join sorts every match) reads the client's tests on
   * other aggregates from grouped joins of their own, joined beside the order's, instead of a correlated subquery per
   * base row. MariaDB: users with `posts_views_max < ?` counted over 60,000 users took 1.16 s correlated, 0.13 s
   * joined; users by `postsCount` with `posts_views_max >= ?`, page 16: 2.1–2.8 s → 1.3–1.4 s (figure 16). A page that
   * stops early keeps the correlated test (page 11 by `id`: 6 ms correlated, 257 ms joined). SQLite and PostgreSQL
   * read such a page with correlated aggregates for the rows its conditions keep (`correlatedAggregateOrder`).
   */
  readonly joinedAggregateTests: boolean
  /**
   * Whether a page without an order cutoff joins the to-one hops of its relation filters that are inner joins by
   * declaration (`required` belongsTo hops to tables without a guard, from the base table) and tests the joined rows
   * (see `joinedHopsWhere`), letting the planner choose the join order by the conditions' selectivity. MariaDB
   * flattened each such filter into a semi-join driven from the related table's index and sorted every match:
   * comments with `post.views < ?` and `post.author.score < ?` by `id`, page 19, 2.2 s listed against 8 ms joined;
   * with values few posts meet, 43 against 41 ms (figure 16). `false`: only the hops the orders join.
   */
  readonly joinFilterHops: boolean
  /**
   * How eager loading writes a top N per parent (a `hasOne`, a `morphOne`, a to-many relation with `limit`):
   * `window` numbers the rows of every parent with `row_number() over (partition by …)` and keeps the first N;
   * `lateral` runs `cross join lateral (… order by … limit N)` per parent key. Measured on figure 6's data
   * (`bench/memory/lateral-vs-window.ts`, PostgreSQL, 1,000 parents): LATERAL was ×7.5 faster for a user's 3
   * newest posts (an index on the order: it reads 3 rows per user, the window every candidate) and ×1.05–1.1
   * for a team's first or newest members (no such index). SQLite and MariaDB have no LATERAL.
   */
  readonly topPerParent: Name extends 'postgres' ? 'window' | 'lateral' : 'window'
}
