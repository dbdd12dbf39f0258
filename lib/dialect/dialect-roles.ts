import type { Dialect, DialectName } from './dialect.ts'

/**
 * What differs per database, split by who asks (issue 29): each member of {@link Dialect} belongs to exactly one
 * role (pinned by `spec/types/dialect-roles.ts`), so a new member has to say whom it serves. Code that needs one
 * role takes that view instead of the whole dialect.
 */

/** SQL syntax: how a condition, a value, a page or a join is spelled on this database. */
export type DialectSyntax<Name extends DialectName = DialectName> = Pick<
  Dialect<Name>,
  | 'name'
  | 'maxInBindings'
  | 'likeInsensitive'
  | 'likeSensitive'
  | 'nullsSortLargest'
  | 'wideInteger'
  | 'wideNumber'
  | 'textColumn'
  | 'inlinePage'
  | 'bindBoolean'
  | 'bindDatetime'
  | 'exactNumber'
  | 'deferredPageJoin'
  | 'orderedJoin'
>

/** Planner choices: which form of a read this database runs fastest, each measured (BENCHMARKS.md). */
export type DialectPlanner<Name extends DialectName = DialectName> = Pick<
  Dialect<Name>,
  | 'filteredRelation'
  | 'bareRelation'
  | 'keyFirstRelation'
  | 'frequencyGuard'
  | 'deferredPageOffset'
  | 'deferredAggregatePageOffset'
  | 'deferredAggregateOrderPageOffset'
  | 'cutoffJoinedOrder'
  | 'cutoffListGuard'
  | 'topPerParent'
>

/** Runtime: running statements on this database (cancellation, snapshot transactions). */
export type DialectRuntime<Name extends DialectName = DialectName> = Pick<
  Dialect<Name>,
  'cancelStatement' | 'prepareCancel' | 'cancellableSession' | 'stoppableRead' | 'snapshotTransaction'
>

/** Tooling: what the CLI, `estimatedCount` and `checkRelationMap` read (EXPLAIN, estimates, catalogs' storage). */
export type DialectTooling<Name extends DialectName = DialectName> = Pick<
  Dialect<Name>,
  'estimateRows' | 'explain' | 'explainTransaction' | 'datetimeStorage'
>
