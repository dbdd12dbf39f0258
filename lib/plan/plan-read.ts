import type { DialectPlanner, DialectSyntax } from '../dialect/dialect-roles.ts'
import type { FrequencyGuard } from '../dialect/dialect.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate, QueryPlan } from '../validate/query-plan.ts'
import { correlated, plainStyle, type ConditionStyle } from './condition-style.ts'
import { deferredPageFrom } from './deferred-page-from.ts'
import { planHoldsKeyFirstFilter } from './holds-key-first-filter.ts'
import { alwaysHolds } from './always-holds.ts'
import { innerPath } from './inner-path.ts'
import { disjunctionBranches } from './disjunction-branches.ts'
import { everyWhereJoinable, filterHops } from './filter-hops.ts'
import { joinedByAndOnly, listedWalkFilters, listingProbed, probedListFilter } from './probed-list.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import { primaryKeyColumns } from '../map/columns.ts'
import type { CutoffPlan, DisjunctionPlan, GuardPlan, PagePlan, ReadPlan } from './read-plan.ts'
import { chooseBySelectivity, chooseKeyFirst, selectiveByDeclaration } from './relation-filter-form.ts'

const NO_HOPS: ReadonlyArray<readonly DirectRelation[]> = Object.freeze([])
const NO_AGGREGATES: readonly PlannedAggregate[] = Object.freeze([])
/**
 * The correlated order without a probe (`rows` infinite): for a page whose first order is a column, whose aggregates
 * only order the rows that tie on it (a walk of the column's index computes them for the rows up to the page's end,
 * where a probe walks to its 5,000th match: users with `score > ?` and `posts.views > ?` by `score, postsViewsMax`,
 * page 15, 2.9 s → 0.34 s on SQLite, 0.46 → 0.34 s on PostgreSQL, figure 16), for a page whose where tests an
 * aggregate it is not ordered by (see {@link testsUnorderedAggregate}), and on every dialect for a page whose wheres
 * keep few rows by declaration (see {@link keepsFewRows}).
 */
const ALWAYS_CORRELATED = Object.freeze({ rows: Number.POSITIVE_INFINITY, kept: false })
const LISTED_CORRELATED = Object.freeze({ rows: Number.POSITIVE_INFINITY, kept: false, listedOnly: true as const })

/**
 * Whether a where tests an aggregate the page is not ordered by: its correlated subquery runs for every base row the
 * where reaches, so a probe of the conditions costs as much as the page, and the order's correlated subqueries, run
 * for the matches only, cost at most as much again (figure 16: users with `posts_views_max < ?` by `postsCount` on
 * SQLite, 1.3 s probe + 1.3 s page). A test of an aggregate the page is ordered by reads the order's grouped join
 * instead (see `joinedAggregateWhere`), and the page no probe either (see `pageRewriteFor`).
 */
function testsUnorderedAggregate(query: QueryPlan): boolean {
  const ordered = new Set(query.orders.flatMap(({ aggregate }) => (aggregate === undefined ? [] : [aggregate.key])))
  return query.wheres.some(({ condition }) => condition.kind === 'aggregate' && !ordered.has(condition.aggregate.key))
}

/** Whether the client's wheres, all joined by `and`, keep few base rows by declaration (`id = ?`, a unique `in`). */
function keepsFewRows(map: RelationMap, query: QueryPlan): boolean {
  if (!joinedByAndOnly(query.wheres)) return false
  return query.wheres.some(({ condition }) => condition.kind === 'test' && selectiveByDeclaration(map, condition))
}

/**
 * The correlated order of a paged read without a cutoff, guard or search that is ordered by an aggregate (see
 * `PagePlan.correlatedOrder`), or `undefined`. Wheres that keep few rows by declaration (`fewRows`: `id = ?`) have
 * their aggregates correlated on every dialect: MariaDB grouped every post for one user (1.1 s against 1 ms).
 */
function correlatedOrderOf(
  dialect: PlannerDialect,
  query: QueryPlan,
  fewRows: boolean,
  innerGroups: ReadonlySet<string>,
): PagePlan['correlatedOrder'] {
  const first = query.orders[0]
  if (!query.orders.some((order) => order.aggregate !== undefined)) return undefined
  if (fewRows) return ALWAYS_CORRELATED
  const probed = dialect.correlatedAggregateOrder
  if (probed === undefined) return undefined
  if (first?.aggregate === undefined || testsUnorderedAggregate(query)) return ALWAYS_CORRELATED
  const { kind, key } = first.aggregate
  return Object.freeze({
    rows: probed.rows,
    kept:
      probed.keptGroups === true &&
      first.direction === 'desc' &&
      (kind === 'count' || kind === 'exists') &&
      !innerGroups.has(key),
  })
}

const NO_GROUPS: ReadonlySet<string> = Object.freeze(new Set<string>())

/**
 * On SQLite, a branch's filter is listed while its list holds fewer than this many times the branch's rows (offset +
 * limit), or the frequency guard's cap where that is more. Users with an `or` of two `posts.title like ?`, 1,500 rows
 * (figure 16's data): 1,300 related rows 45 ms listed, 820 ms walked; 13,000 42 against 91 ms; 133,000 79 against
 * 6 ms. At 100 rows, 13,000 related rows walk in 4 ms.
 */
const SQLITE_BRANCH_ROWS = 8

/**
 * The two forms of the branches of a page read as the union of its `or`'s branches (`DisjunctionPlan.walks`), or
 * none: on MariaDB (`Dialect.listedWalk`, with `walk`, the walking style) each branch's listed filters whose lists a
 * probe counts (see {@link listedWalkFilters}); on SQLite (`filteredRelation: 'by-selectivity'`, `frequency` its guard)
 * each branch's one filter a probe may list (see {@link probedListFilter}, written walked in `conditions`). None
 * where no branch has such filters.
 */
function branchWalks(
  map: RelationMap,
  dialect: PlannerDialect,
  branches: NonNullable<ReturnType<typeof disjunctionBranches>>,
  walk: ConditionStyle | undefined,
  conditions: ConditionStyle | undefined,
  frequency: FrequencyGuard | undefined,
): Pick<DisjunctionPlan, 'walks'> {
  if (frequency === undefined || conditions === undefined) return {}
  const listing = dialect.listedWalk
  const filters =
    listing !== undefined && walk !== undefined
      ? branches.map((wheres) => listedWalkFilters(map, [...wheres]))
      : dialect.filteredRelation === 'by-selectivity'
        ? branches.map((wheres) => {
            const filter = probedListFilter(map, { wheres: [...wheres] }, conditions.relationForm)
            return filter === undefined ? undefined : [filter]
          })
        : []
  if (filters.every((filter) => filter === undefined)) return {}
  return {
    walks: Object.freeze({
      filters: Object.freeze(filters),
      walk: listing === undefined ? undefined : walk,
      cap: listing?.cap ?? frequency.cap,
      perRow: listing === undefined ? SQLITE_BRANCH_ROWS : 0,
      callerCap: frequency.cap,
      at: frequency.at,
    }),
  }
}

/**
 * The keys of the aggregates `query` orders by whose grouped join can be an inner join (`PagePlan.innerGroups`): an
 * aggregate without a scope over a relation the client's `relations_exists` requires.
 */
function innerGroupsOf(query: QueryPlan): ReadonlySet<string> {
  if (query.exists.length === 0 || query.orders.every(({ aggregate }) => aggregate === undefined)) return NO_GROUPS
  const required = new Set(
    query.exists.flatMap((condition) =>
      condition.kind === 'exists' ? [`${condition.relation.parentTable}.${condition.relation.name}`] : [],
    ),
  )
  const keys = query.orders.flatMap(({ aggregate }) =>
    aggregate !== undefined &&
    aggregate.scope === undefined &&
    required.has(`${aggregate.relation.parentTable}.${aggregate.relation.name}`)
      ? [aggregate.key]
      : [],
  )
  return Object.freeze(new Set(keys))
}

/**
 * Whether a page ordered by `query.orders` gets an order cutoff, on a dialect that cuts off (`Dialect.cutoffJoinedOrder`):
 * its first order is a NOT NULL column through inner-joined hops, or of the base table when a later order joins, or
 * is a column of the base table while the client's conditions test only its columns (`Dialect.cutoffColumnOrder`; not
 * with a search, which orders through its own join, nor for wheres that keep few rows by declaration), or, on a
 * dialect without that, where `correlatedCut` (see {@link cutsCorrelated}). The cutoff's walk joins hop by hop on one
 * key column each; a composite key keeps the page as it is.
 */
function cutsOff(
  dialect: PlannerDialect,
  query: QueryPlan,
  map: RelationMap,
  fewRows: boolean,
  correlatedCut: boolean,
): boolean {
  const [first, ...later] = query.orders
  if (!dialect.cutoffJoinedOrder || first === undefined || first.nullable) return false
  if (first.via.length === 0)
    return (
      !fewRows &&
      ordersByBaseColumnFirst(query) &&
      (dialect.cutoffColumnOrder
        ? later.some(
            (order) =>
              order.via.length > 0 ||
              order.aggregate !== undefined ||
              (columnTestsOnly(query) && sortsTies(map, query.table, first, order)),
          )
        : correlatedCut)
    )
  return innerPath(map, first.via) && first.via.every((relation) => relation.composite === undefined)
}

/**
 * Whether a page whose first order is a NOT NULL column of the base table, and a later order an aggregate, is cut off
 * and reads its aggregates correlated for the rows it keeps (`Dialect.correlatedAggregateOrder.cutoff`); not a page
 * whose wheres are an `or` holding a relation filter.
 */
function cutsCorrelated(dialect: PlannerDialect, query: QueryPlan): boolean {
  return (
    dialect.correlatedAggregateOrder?.cutoff === true &&
    dialect.cutoffJoinedOrder &&
    ordersByBaseColumnFirst(query) &&
    // An `or` with a relation filter is read as the union of its branches.
    (joinedByAndOnly(query.wheres) || columnTestsOnly(query)) &&
    query.orders.slice(1).some((order) => order.aggregate !== undefined)
  )
}

/**
 * Whether the first order of `query` is a NOT NULL column of the base table itself (no relation, aggregate or search
 * relevance), and no search orders the page through its own join: the orders a walk of that column's index cuts off.
 */
function ordersByBaseColumnFirst(query: QueryPlan): boolean {
  const first = query.orders[0]
  return (
    first !== undefined &&
    first.via.length === 0 &&
    !first.nullable &&
    first.aggregate === undefined &&
    first.relevance === undefined &&
    query.search === undefined
  )
}

/** Whether the client's conditions test only columns of the base table (no relation filter, no `relations_exists`). */
function columnTestsOnly(query: QueryPlan): boolean {
  return query.exists.length === 0 && query.wheres.every(({ condition }) => condition.kind === 'test')
}

/**
 * Whether a later order by a base column (`order`) sorts the rows that tie on `first` in an order no index on
 * `first` yields: `first` is not total, and `order` is not a primary key column in `first`'s direction (an InnoDB
 * index on a column holds the primary key after it, in the key's order; only MariaDB cuts off such a page).
 */
function sortsTies(map: RelationMap, table: string, first: PlannedOrder, order: PlannedOrder): boolean {
  if (first.total || order.relevance !== undefined) return false
  return order.direction !== first.direction || !primaryKeyColumns(map, table).includes(order.column)
}

/** What the planner reads of a dialect: its planner choices, and the join an order cutoff walks with. */
export type PlannerDialect = DialectPlanner & Pick<DialectSyntax, 'orderedJoin'>

/** What the plan of a read knows of the query it applies to. */
export interface ReadFacts {
  /** The name the base table is known by. */
  readonly ref: string
  /** Whether the read has a limit (the request's or the caller's). */
  readonly paged: boolean
}

/**
 * The read plan of `query` on `dialect` (see {@link ReadPlan}): the style of the client's conditions (the form of
 * each relation filter, which are written key first, whether their key lists are told for a frequency guard), the
 * styles of a guarded page's other forms, and the page's form (deferred from an offset, cut off by its first
 * order, guarded by a key's frequency, read as the union of its `or`'s branches). Its `query` is `validated`
 * without the `relationsExists` that hold for every row by declaration (see {@link alwaysHolds}). Frozen: what it
 * says is decided here, once per request.
 */
export function planRead(validated: QueryPlan, dialect: PlannerDialect, map: RelationMap, facts: ReadFacts): ReadPlan {
  const { ref, paged } = facts
  const query = validated.exists.some((condition) => alwaysHolds(map, condition))
    ? Object.freeze({ ...validated, exists: validated.exists.filter((condition) => !alwaysHolds(map, condition)) })
    : validated
  const plain = plainStyle(dialect)
  const first = query.orders[0]
  const orderedBy = first !== undefined && first.via.length === 0 ? first.column : undefined
  const filtered = query.wheres.length > 0 || query.exists.length > 0
  // A page whose first order is an aggregate sorts every match: no filter stops early once the page is full.
  const stopsEarly = paged && first?.aggregate === undefined
  const frequency = paged && filtered ? dialect.frequencyGuard : undefined
  let conditions: ConditionStyle | undefined = filtered
    ? Object.freeze({
        ...plain,
        relationForm:
          dialect.filteredRelation === 'by-selectivity' ? chooseBySelectivity(map, stopsEarly) : plain.relationForm,
        keyFirst: chooseKeyFirst(map, dialect, ref, orderedBy),
        keyLists: frequency === undefined ? undefined : Object.freeze({ base: ref, orderedBy }),
      })
    : undefined
  let guard: GuardPlan | undefined
  if (frequency !== undefined && planHoldsKeyFirstFilter(map, query)) {
    const keyFirst = chooseKeyFirst(map, dialect, ref, undefined, true)
    guard = Object.freeze({
      walk: Object.freeze({
        ...plain,
        relationForm: correlated,
        keyFirst,
        walk: frequency.walkProbe,
        keyLists: Object.freeze({ base: ref, orderedBy: undefined }),
      }),
      fenced: frequency.fencedList ? Object.freeze({ ...plain, keyFirst, fencedBase: ref }) : undefined,
      cap: frequency.cap,
      callerCap: frequency.cap,
      everyList: false,
      at: frequency.at,
      orderedPivotServes: frequency.orderedPivotServes,
    })
  }
  // SQLite walks a correlated filter per base row: one that few related rows pass is listed, as a probe finds.
  let listProbed = false
  if (
    guard === undefined &&
    frequency !== undefined &&
    conditions !== undefined &&
    dialect.filteredRelation === 'by-selectivity' &&
    stopsEarly &&
    query.search === undefined &&
    (query.orders.every((order) => order.aggregate === undefined) || dialect.correlatedAggregateOrder?.cutoff === true)
  ) {
    const probed = probedListFilter(map, query, conditions.relationForm)
    if (probed !== undefined) {
      listProbed = true
      guard = Object.freeze({
        walk: conditions,
        fenced: undefined,
        cap: frequency.cap,
        callerCap: frequency.cap,
        everyList: false,
        at: frequency.at,
        orderedPivotServes: false,
      })
      conditions = Object.freeze({
        ...conditions,
        relationForm: listingProbed(conditions.relationForm, probed),
        toldLists: [probed],
      })
    }
  }
  let cutoff: CutoffPlan | undefined
  const fewRows = keepsFewRows(map, query)
  const correlatedCut = cutsCorrelated(dialect, query)
  if (first !== undefined && cutsOff(dialect, query, map, fewRows, correlatedCut))
    cutoff = Object.freeze({
      order: first,
      hops:
        first.via.length > 0
          ? [first.via]
          : query.orders.flatMap(({ via }) => (via.length > 0 && innerPath(map, via) ? [via] : [])),
      join: dialect.orderedJoin,
      selectModifier: dialect.orderedJoin === 'straight_join' ? 'straight_join ' : '',
      listProbe: dialect.cutoffListGuard,
      bound: dialect.cutoffBound,
    })
  // MariaDB lists every relation filter: a list that many related rows pass is walked instead, as a probe finds.
  const walkStyle =
    dialect.listedWalk !== undefined &&
    frequency !== undefined &&
    conditions !== undefined &&
    guard === undefined &&
    // A cut-off walk reads the ordered index joined: a rare column test beside the filters would walk all of it.
    (cutoff === undefined || query.wheres.every(({ condition }) => condition.kind === 'exists')) &&
    stopsEarly &&
    query.search === undefined &&
    query.orders.length > 0 &&
    // A later aggregate's grouped join orders only the cut-off page's rows; uncut, its page has a correlated order.
    (cutoff !== undefined || query.orders.every((order) => order.aggregate === undefined))
      ? Object.freeze({ ...conditions, relationForm: correlated, walk: frequency.walkProbe })
      : undefined
  if (
    walkStyle !== undefined &&
    frequency !== undefined &&
    dialect.listedWalk !== undefined &&
    conditions !== undefined &&
    joinedByAndOnly(query.wheres) &&
    filterHops(map, query).length === 0
  ) {
    const probed = listedWalkFilters(map, query.wheres)
    if (probed !== undefined) {
      guard = Object.freeze({
        walk: walkStyle,
        fenced: undefined,
        cap: dialect.listedWalk.cap,
        callerCap: frequency.cap,
        everyList: true,
        at: frequency.at,
        orderedPivotServes: false,
      })
      conditions = Object.freeze({ ...conditions, toldLists: Object.freeze(probed) })
    }
  }
  // One probe per page: the cutoff's and the guard's come first. A search orders through its own join.
  const innerGroups = innerGroupsOf(query)
  // A probed list's few rows read their aggregates correlated; cut off at an order through a join, only they do.
  const correlatedOrder =
    !paged || query.search !== undefined
      ? undefined
      : (cutoff === undefined && (guard === undefined || listProbed)) || correlatedCut
        ? correlatedOrderOf(dialect, query, fewRows, innerGroups)
        : listProbed && query.orders.some((order) => order.aggregate !== undefined)
          ? LISTED_CORRELATED
          : undefined
  // A cutoff serves the page in its order (and a frequency guard, where one applies: see `applyQueryParams`);
  // without, an `or` with a relation filter is the union of its branches, unless the page joins the hops of its
  // filters and every where is a column test of the base table or of a joined row: that `or` is read in one pass.
  const joinsOr =
    dialect.joinFilterHops &&
    paged &&
    cutoff === undefined &&
    guard === undefined &&
    !joinedByAndOnly(query.wheres) &&
    everyWhereJoinable(map, query)
  const branches =
    (cutoff === undefined || (cutoff.listProbe !== undefined && dialect.cutoffBranches)) &&
    conditions !== undefined &&
    !joinsOr
      ? disjunctionBranches(query, paged)
      : undefined
  const disjunction: DisjunctionPlan | undefined =
    branches === undefined
      ? undefined
      : Object.freeze({
          branches,
          ...(cutoff === undefined ? branchWalks(map, dialect, branches, walkStyle, conditions, frequency) : {}),
        })
  // A page read in one of the forms above keeps its conditions as they are.
  const hops =
    dialect.joinFilterHops &&
    paged &&
    conditions !== undefined &&
    cutoff === undefined &&
    guard === undefined &&
    correlatedOrder === undefined &&
    disjunction === undefined
      ? Object.freeze(filterHops(map, query).map((via) => Object.freeze(via)))
      : NO_HOPS
  // A page that sorts every match reads the aggregates its where tests from grouped joins, as its order's.
  const joinedTests =
    dialect.joinedAggregateTests &&
    paged &&
    first?.aggregate !== undefined &&
    conditions !== undefined &&
    guard === undefined &&
    correlatedOrder === undefined &&
    disjunction === undefined &&
    query.search === undefined
      ? Object.freeze(
          query.wheres.flatMap(({ condition }) => (condition.kind === 'aggregate' ? [condition.aggregate] : [])),
        )
      : NO_AGGREGATES
  return Object.freeze({
    query,
    conditions,
    plain,
    page: Object.freeze({
      deferFrom: deferredPageFrom(dialect, query),
      cutoff,
      guard,
      correlatedOrder,
      disjunction,
      filterHops: hops,
      groupedScan: dialect.groupedJoinScan && !fewRows,
      innerGroups,
      joinedTests,
    }),
  })
}
