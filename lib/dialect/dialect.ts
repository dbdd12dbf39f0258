import type { Knex } from 'knex'
import type { UtcInstant } from '../values.ts'

/** A `like` test as SQL. */
export interface LikeSql {
  /** The test on `column` (already quoted), with `?` for the client's pattern after {@link pattern}. */
  sql(column: string): string
  pattern(value: string): string
  /** How many `?` {@link sql} holds, each bound to the same pattern; 1 when not given. */
  readonly placeholders?: number
}

/** A bounded read set up to run where it can be stopped at once (see `Dialect.stoppableRead`). */
export interface StoppableRead {
  /** What the statement is bound to (`builder.connection(…)`) to run this way. */
  readonly connection: unknown
  /** Ends the statement now if it runs (its reader process is killed), or keeps it from starting. */
  stop(): void
}

/** The databases the library writes SQL for; also what the `dialect` option declares. */
export type DialectName = 'sqlite' | 'postgres' | 'mysql'

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
 * What the library needs to know about a database: the differences, as data and small functions. `Name` narrows
 * the flags a database cannot honour (only PostgreSQL has `lateral` among them), so a dialect that would write
 * SQL its database rejects does not compile.
 */
export interface Dialect<Name extends DialectName = DialectName> {
  readonly name: Name
  /** How many values one `IN (…)` list may bind, safely below the driver's bind-parameter limit. */
  readonly maxInBindings: number
  /**
   * A case-insensitive `like`. In the client's pattern `%` and `_` are wildcards and a backslash
   * escapes the next character (`\%` is a literal `%`), on every database.
   */
  readonly likeInsensitive: LikeSql
  /** A case-sensitive `like`, with the same pattern rules. */
  readonly likeSensitive: LikeSql
  /**
   * Whether NULLs sort as the largest values (PostgreSQL). The library orders NULLs as the smallest on
   * every database (first ascending, last descending), so such a dialect gets explicit `nulls first/last`.
   */
  readonly nullsSortLargest: boolean
  /**
   * The placeholder (holding one `?`) binding an integer outside the 16-bit range, or `undefined` where such
   * integers bind plainly.
   * PostgreSQL types a bare parameter after the column it meets, so `int4_column < 3000000000` and
   * `smallint_column < 40000` are database errors there unless the value is cast (`?::bigint`, which the
   * integer index still serves).
   */
  readonly wideInteger?: string
  /**
   * The placeholder (holding one `?`) binding a number a single-precision float cannot hold (`3.5e38`, `1e-46`),
   * or `undefined` where such numbers bind plainly. PostgreSQL types the parameter after a `real` column and
   * refuses it; cast to `float8`, it is compared exactly (the `real` index still serves it).
   */
  readonly wideNumber?: string
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
   * The offset from which a page ordered by an aggregate that selects another aggregate (a correlated subquery) is
   * read as a deferred page, where the two offsets above do not already apply. MariaDB sorts such a page (a join to the
   * grouped aggregate) through a temporary table that holds every row's select list, so each row's selected
   * aggregate is computed before the page is found: users ordered by `postsCount` with `postsViewsMax` selected,
   * page 4 of 20 over 60,000 users and 600,000 posts, took 15–16 s plain and 1.6–1.7 s deferred (figure 16's
   * slowest MariaDB request). A page in an index's order gains nothing (1.8 against 5.8 ms), and a page selecting
   * only the aggregate it is ordered by reads it from the order's join: neither is deferred.
   */
  readonly deferredAggregateOrderPageOffset?: number
  /**
   * Whether the page's `limit` and `offset` (integers the library validated) are written into the SQL rather than
   * bound (knex's `skipBinding`). SQLite runs a page 17 µs faster with `limit 20` than with `limit ?` (49.5
   * against 66.9 µs for a 20-row page read by index from 1M posts, 4,000 interleaved runs; the same for a
   * hand-written form): on a page of 0.05–0.1 ms that is ×1.2–1.35. PostgreSQL plans an unnamed statement with the
   * bound values and mysql2 interpolates them, so they stay bound there.
   */
  readonly inlinePage: boolean
  /**
   * Whether a page whose first order is a NOT NULL column reached through inner-joined belongsTo hops gets a
   * cutoff condition (the value of the page's last row, found by an index walk of the ordered table). MySQL
   * and MariaDB cannot read an index in the order of a joined table's column and sort the whole join
   * (28 s for `order by author.name` over 1M posts); SQLite and PostgreSQL walk the joined table's index.
   */
  readonly cutoffJoinedOrder: boolean
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
   * How to read the planner's estimate of a query's row count, where the database exposes one: `sql` wraps
   * the query (`explain (format json) …`), `read` takes the estimate from the result.
   */
  readonly estimateRows?: { sql(query: string): string; read(result: unknown): number | undefined }
  /**
   * How eager loading writes a top N per parent (a `hasOne`, a `morphOne`, a to-many relation with `limit`):
   * `window` numbers the rows of every parent with `row_number() over (partition by …)` and keeps the first N;
   * `lateral` runs `cross join lateral (… order by … limit N)` per parent key. Measured on figure 6's data
   * (`bench/memory/lateral-vs-window.ts`, PostgreSQL, 1,000 parents): LATERAL was ×7.5 faster for a user's 3
   * newest posts (an index on the order: it reads 3 rows per user, the window every candidate) and ×1.05–1.1
   * for a team's first or newest members (no such index). SQLite and MariaDB have no LATERAL.
   */
  readonly topPerParent: Name extends 'postgres' ? 'window' | 'lateral' : 'window'
  /**
   * Stops the statement running on `connection` (one the pool gave out) from outside it, on the server, or
   * `undefined` where no statement can be stopped so (SQLite runs each statement to its end, synchronously).
   * Resolves once the server has the request; the statement then fails on its own connection.
   */
  readonly cancelStatement?: (client: Knex.Client, connection: unknown) => Promise<void>
  /** Learns what `cancelStatement` must know of `connection` before a statement runs on it (once per connection). */
  readonly prepareCancel?: (client: Knex.Client, connection: unknown) => Promise<void>
  /**
   * Changes the session of `connection` for the bounded statement about to run on it, so that a cancel can stop it,
   * and returns what restores the session once the statement has ended (`undefined`: nothing was changed).
   * PostgreSQL turns JIT off where the session has it on: a backend compiling a plan does not answer a cancel.
   */
  readonly cancellableSession?: (connection: unknown) => Promise<(() => Promise<void>) | undefined>
  /**
   * Where no statement can be cancelled on a server (SQLite): sets up a bounded read to run outside the calling
   * thread, in a process that can be ended at once, or resolves to `undefined` where it must run on the caller's
   * connection (a transaction, a database in memory). SQLite with better-sqlite3: a reader process on the same file.
   */
  readonly stoppableRead?: (client: Knex.Client) => Promise<StoppableRead | undefined>
  /** The transaction in which `paginate({ queries: 'transaction' })` reads page and count from one snapshot. */
  readonly snapshotTransaction: Knex.TransactionConfig
  /** A boolean as this database binds it. */
  bindBoolean(value: boolean): boolean | number
  /** A datetime (UTC instant) as this database compares it (on SQLite, in the column's declared storage). */
  bindDatetime(value: UtcInstant): string | number
  /**
   * The placeholders (holding one `?`) binding the exact text of a `bigint` and a `decimal` value so that the
   * database compares it exactly, or `undefined` where a bare text parameter already is. MySQL compares an
   * integer or decimal column with a text parameter as doubles (`9007199254740993` would equal `…992`).
   */
  readonly exactNumber?: { bigint: string; decimal: string }
  /**
   * How a deferred page (see {@link deferredPageOffset}) joins the base table back to the page's keys:
   * `cross join … on`, which SQLite keeps in the written order (the keys first) and MySQL/MariaDB read as an
   * inner join, or `inner join` where `cross join … on` is a syntax error (PostgreSQL).
   */
  readonly deferredPageJoin: 'cross join' | 'inner join'
  /**
   * The join an order cutoff (see {@link cutoffJoinedOrder}) walks from the ordered table back to the base table
   * with, keeping the ordered table first: `straight_join` (MySQL/MariaDB), `cross join` (SQLite), or `inner join`
   * where the database has no such hint (PostgreSQL).
   */
  readonly orderedJoin: 'straight_join' | 'cross join' | 'inner join'
  /** How the `explain` CLI asks for the plan of a statement, and reads the database's answer as lines of text. */
  readonly explain: { sql(query: string): string; lines(result: unknown): string[] }
  /** The transaction the `explain` CLI runs a request in (and rolls back): read-only where the database has it. */
  readonly explainTransaction: Knex.TransactionConfig
  /**
   * Whether a `datetime` column holds whatever is written to it, in the form its `storage` declares (SQLite, which
   * has no date-time type), so that `checkRelationMap` samples its values; other databases have date-time types.
   */
  readonly datetimeStorage: boolean
  /**
   * How a test reads a `string` column that is not plain text (an enum declared with `values`, a `CHAR(n)` declared
   * `padded`), by use: `equal` (`=`, `!=`, `in`), `compare` (`<`, `between`…) or `like`; `undefined` where the column
   * itself already compares as text. PostgreSQL has no `like` on an enum and compares it in declaration order, and
   * its `like` on `char(n)` sees the padding; SQLite keeps whatever spaces were written.
   */
  readonly textColumn?: (column: string, kind: 'enum' | 'padded', use: 'equal' | 'compare' | 'like') => string
}
