import type { Knex } from 'knex'
import type { BoundedRun } from '../bound/carried-run.ts'
import { BuilderSlot } from '../knex/builder-slot.ts'
import type { Row } from '../normalize/row-values.ts'
import type { ProbedForm } from './page-rewrite.ts'
import type { Seek } from './seek-orders.ts'

/**
 * What a builder carries for its reads, in one immutable value (the one slot of `BuilderSlot`): set by
 * `applyQueryParams` on the builder it returns, and on the copies a read makes. It follows the slot's rule: it
 * belongs to the builder it was set on (`.transacting()` and the other chained calls keep it), and no copy has it
 * (`.clone()`, `statementCopy()`); a copy is given what it needs of it (`cloneWithEagerLoading` its `run`, a read
 * its `form`).
 */
export interface ReadState {
  /** How the builder runs with its eager loading under a bound a caller shares (`paginate`). */
  readonly run?: BoundedRun
  /** The probe of the guarded page the builder reads as it stands, if it reads one (see `guardProbeOf`). */
  readonly probe?: (query: Knex.QueryBuilder) => Knex.Raw | undefined
  /** On a read's copy of a guarded page: the form its probe chose (see `readInForm`). */
  readonly form?: ProbedForm
  /** On a keyset page's copy read before its cursor: ordered in reverse of the request (see `readReversed`). */
  readonly reversed?: true
  /** What a keyset page needs of the request (see `seekOf`). */
  readonly seek?: Seek
  /** On a keyset page's copy: the one select entry it added for the position values (see `markSeekColumns`). */
  readonly seekColumns?: 1
  /** On a keyset page's copy: reads the rows as the driver returned them (see `finishRows`, step 0). */
  readonly seeRawRows?: (rows: Row[]) => void
}

const READ_STATE = new BuilderSlot<ReadState>()

/** The read state of `builder` itself (see {@link ReadState}); empty when it has none. */
export function readStateOf(builder: Knex.QueryBuilder): ReadState {
  return READ_STATE.of(builder) ?? NONE
}

/**
 * Gives `builder` its read state with `change` made to it (a new value: the old one is not changed). A builder
 * without one keeps `change` itself, frozen: callers pass a new object.
 */
export function changeReadState(builder: Knex.QueryBuilder, change: ReadState): void {
  const state = READ_STATE.of(builder)
  READ_STATE.set(builder, state === undefined ? change : { ...state, ...change })
}

const NONE: ReadState = Object.freeze({})

/** The {@link BoundedRun} a builder carries, if `applyQueryParams` made it (or it was carried over to it). */
export function boundedRunOf(builder: Knex.QueryBuilder): BoundedRun | undefined {
  return readStateOf(builder).run
}

/** Makes `builder` carry `run` (nothing when `undefined`). */
export function carryBoundedRun(builder: Knex.QueryBuilder, run: BoundedRun | undefined): void {
  if (run !== undefined) changeReadState(builder, { run })
}
