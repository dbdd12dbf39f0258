import type { Dialect } from '../dialect/dialect.ts'
import type { PlannedAggregate, QueryPlan } from '../validate/query-plan.ts'
import type { PlannedOrder } from '../validate/resolve-order.ts'
import type { DirectRelation } from '../validate/resolved-relation.ts'
import type { ConditionStyle } from './condition-style.ts'
import type { ProbedFilter } from './probed-list.ts'

/**
 * Every decision about the form of one read, made once from the validated request (see `planRead`) and never
 * changed: how each condition is written, and the form of the page. `apply/` writes what it says.
 */
export interface ReadPlan {
  /** The validated request, without the `relationsExists` that hold for every row by declaration. */
  readonly query: QueryPlan
  /** The style of the client's wheres and `relationsExists` (the listing form of a guarded page); none without. */
  readonly conditions: ConditionStyle | undefined
  /** The style of every other condition: search, orders, aggregates, keyset positions. */
  readonly plain: ConditionStyle
  readonly page: PagePlan
}

/** The form a page is read in (see `pageRewriteFor`). */
export interface PagePlan {
  /** The offset from which an ordered page is a deferred page (keys first, then their rows), or `undefined`. */
  readonly deferFrom: number | undefined
  /** The order cutoff of a first order through joined hops, or `undefined` (see {@link CutoffPlan}). */
  readonly cutoff: CutoffPlan | undefined
  /**
   * The frequency guard of a page whose conditions hold a relation filter written key first, of a probed list
   * (SQLite: see `probedListFilter`), or of a listed filter walked when its list is long (`Dialect.listedWalk`), or
   * `undefined`.
   */
  readonly guard: GuardPlan | undefined
  /**
   * The probe of a page ordered by an aggregate (`Dialect.correlatedAggregateOrder`): when its conditions hold
   * fewer than `rows` base rows, its aggregates are correlated subqueries instead of grouped joins; or `undefined`.
   * `rows` is infinite, and no probe is sent, when the first order is a column or the conditions test an aggregate
   * the page is not ordered by. `kept`: the probe first looks for the (offset + limit)-th base row with related rows of
   * the first order, a count or an exists, descending; when there is one, the page inner-joins its grouped join
   * (`Dialect.correlatedAggregateOrder.keptGroups`). `listedOnly`: only the listing form of a probed list reads them
   * correlated (SQLite: a page cut off at a first order through a join keeps its grouped joins in the walking form).
   */
  readonly correlatedOrder: { readonly rows: number; readonly kept: boolean; readonly listedOnly?: true } | undefined
  /**
   * The branches of the top-level `or` of the client's wheres when the page is read as the union of its branches
   * (see `disjunctionBranches`), or `undefined`: only for a page without a cutoff or a correlated order. A page whose
   * frequency guard applies (`guardedForms`) keeps the guard.
   */
  readonly disjunction: DisjunctionPlan | undefined
  /**
   * The to-one hop paths of the client's relation filters a page joins (`Dialect.joinFilterHops`), each an inner
   * join by declaration, its filters testing the joined rows (see `joinedHopsWhere`); empty for any other page.
   */
  readonly filterHops: ReadonlyArray<readonly DirectRelation[]>
  /**
   * Whether the grouped join of an aggregate order groups by `+key` (`Dialect.groupedJoinScan`): not where the
   * client's wheres keep few base rows by declaration (`id = ?`), whose groups SQLite reads from the foreign key's
   * index for those keys alone (1 ms, 0.24 s scanned).
   */
  readonly groupedScan: boolean
  /**
   * The keys of the aggregates the page orders by whose grouped join is an inner join (see `joinAggregate`): the
   * client's `relations_exists` of the same relation (or a filter through it) keeps only base rows that have visible
   * related rows, so each kept row has its group. MariaDB then reads the groups first and the base rows they name
   * (posts with comments by `commentsCount`, an `or` of author tests, page 14: 1.5–2.7 s left-joined, 76 ms).
   * Not for an aggregate with a scope, whose rows are fewer than the filter's.
   */
  readonly innerGroups: ReadonlySet<string>
  /**
   * The aggregates the client's wheres test that the page joins grouped, beside its order's, and its conditions read
   * from those joins (`Dialect.joinedAggregateTests`; see `joinedAggregateWhere`); empty for any other page.
   */
  readonly joinedTests: readonly PlannedAggregate[]
}

/** A page read as the union of the top-level `or` branches of the client's wheres (see `disjunctionPage`). */
export interface DisjunctionPlan {
  /** Each branch: its wheres, all joined by `and`. */
  readonly branches: ReadonlyArray<ReadonlyArray<QueryPlan['wheres'][number]>>
  /**
   * Each branch's two forms, listed and walked, of which a probe of its filters' lists picks one, or `undefined` for
   * every branch: the filters whose lists a probe counts up to `cap` rows (`undefined` for a branch read as written).
   * MariaDB (`Dialect.listedWalk`) writes a branch listed and walks it when every list is long, in `walk`'s style;
   * SQLite (`filteredRelation: 'by-selectivity'`) writes it walked and lists its one filter (`probedListFilter`) when
   * the list is short. `at`: where the probe stands in each form (`Dialect.frequencyGuard`). The probe reads up to
   * `cap` rows, or `perRow` times the branch's rows (offset + limit) where that is more: a walk finds its rows after
   * rows / density base rows.
   */
  readonly walks?: {
    readonly filters: ReadonlyArray<readonly ProbedFilter[] | undefined>
    readonly walk: ConditionStyle | undefined
    readonly cap: number
    readonly perRow: number
    readonly callerCap: number
    readonly at: 'limit' | 'where'
  }
}

/**
 * A page bounded by the value of its last row in its first order, which goes through inner-joined belongsTo hops to
 * a NOT NULL column (`Dialect.cutoffJoinedOrder`; see `withOrderCutoff`).
 */
export interface CutoffPlan {
  /** The first order. */
  readonly order: PlannedOrder
  /**
   * The to-one hop paths the bound walks, whose joined rows the client's relation filters test (see
   * `joinedHopsWhere`): the first order's; for a first order by a column of the base table, the inner-joined paths
   * of the later orders.
   */
  readonly hops: ReadonlyArray<readonly DirectRelation[]>
  /** The join the cutoff walks from the ordered table back to the base table with (`Dialect.orderedJoin`). */
  readonly join: Dialect['orderedJoin']
  /**
   * Written after the bound's `select`: `straight_join ` where the walk joins with `straight_join` (MySQL/MariaDB),
   * which keeps the listed order for every table, so a relation filter's semi-join is materialised once instead of
   * being walked inside the hops (on a 3,000-row table the bound took 300 ms with a tag filter, 30 ms with it).
   */
  readonly selectModifier: string
  /**
   * The probe that reads the page base table first instead when its conditions hold few rows
   * (`Dialect.cutoffListGuard`: up to `factor` × (offset + limit) rows, at most `cap`), or `undefined`: always
   * the cutoff.
   */
  readonly listProbe: { readonly factor: number; readonly cap: number } | undefined
  /** How the page reads the bound (`Dialect.cutoffBound`). */
  readonly bound: Dialect['cutoffBound']
}

/**
 * The frequency guard of a page (`Dialect.frequencyGuard`): the styles its conditions are also written in, and
 * the probe that picks one form when the page is read.
 */
export interface GuardPlan {
  /** The walking form: every relation filter a correlated test, keys first. */
  readonly walk: ConditionStyle
  /** The fenced listing form read once the probe chose the listing form (`fencedList`), or `undefined`. */
  readonly fenced: ConditionStyle | undefined
  /** The related rows from which a key is frequent: the probe reads the key's `cap`-th. */
  readonly cap: number
  /**
   * A caller who may see fewer than four times `callerCap` rows of a guarded base table walks them, whatever the key
   * (see `callerProbe`): `Dialect.frequencyGuard`'s `cap`.
   */
  readonly callerCap: number
  /**
   * Whether the probe reads every key list the listing form tells, the walking form chosen when each has `cap`
   * related rows (`Dialect.listedWalk`); else the one list it tells.
   */
  readonly everyList: boolean
  /** Where the probe stands: each form's limit, or a condition of each form. */
  readonly at: 'limit' | 'where'
  /** No guard when the listing form reads the page in order through a pivot's index for one key. */
  readonly orderedPivotServes: boolean
}
