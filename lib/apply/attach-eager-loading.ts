import type { Knex } from 'knex'
import type { BoundOptions } from '../bound/bound-options.ts'
import { RowBudget } from '../eager-load/row-budget.ts'
import type { RowValues } from '../normalize/row-values.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate, WithNode } from '../validate/query-plan.ts'
import { attachRowReading, type ReadAs } from './attach-row-reading.ts'
import type { RowGuards } from '../guard/row-guards.ts'

/** What {@link attachEagerLoading} does to the rows of a builder, and how it reads them. */
export interface EagerLoading {
  /** The base table of the rows. */
  table: string
  /** The `with` relations to load into them. */
  nodes: readonly WithNode[]
  map: RelationMap
  /** Key columns selected only for matching, removed once loading is done. */
  strip: readonly string[]
  guards: RowGuards
  /** Most related rows one read loads in all (see `RowBudget`). */
  maxEagerRows: number
  /** The time bound of each read (a `timeout` from the first statement, a `signal`). */
  bound: BoundOptions
  /**
   * `'json'`: the allow-listed columns as the JSON values of their declared types; `'driver'`: as the driver gives
   * them.
   */
  values: RowValues
  /** The aggregates the rows carry, which get their JSON types whatever `values` says (see `convertAggregates`). */
  aggregates: readonly PlannedAggregate[]
  /** Each read's statement (see `attachRowReading`). */
  readAs: ReadAs | undefined
  /**
   * How long a guarded page's form is remembered (see `chooseGuardedForm`); `undefined` when the builder guards no
   * page.
   */
  frequencyMemoMs: number | undefined
  /** The builder's `withSchema`, given to the tables of the eager-loading queries named without a schema. */
  schema: string | undefined
}

/**
 * Makes every way of reading `builder` (see `attachRowReading`) give its rows with `nodes` eager-loaded,
 * the key columns in `strip` removed, and, unless `values` is `'driver'`, the allow-listed columns of every row
 * (eager-loaded ones included) as the JSON values of their declared types. Each read loads at most
 * `maxEagerRows` related rows in all (see `RowBudget`); every statement it runs keeps `bound`.
 */
export function attachEagerLoading(builder: Knex.QueryBuilder, loading: EagerLoading): void {
  const { table, nodes, map, strip, guards, maxEagerRows, bound, aggregates, schema } = loading
  const json = loading.values === 'json'
  const bounded = bound.timeout !== undefined || bound.signal !== undefined
  // Checks the option now, as a server bug, rather than when the query runs.
  new RowBudget(maxEagerRows)
  if (
    nodes.length === 0 &&
    strip.length === 0 &&
    !json &&
    !bounded &&
    aggregates.length === 0 &&
    loading.frequencyMemoMs === undefined
  )
    return
  const steps = { table, nodes, map, strip, guards, maxEagerRows, json, aggregates, schema }
  attachRowReading(builder, steps, nodes.length > 0, {
    bound,
    readAs: loading.readAs,
    frequencyMemoMs: loading.frequencyMemoMs ?? 0,
  })
}
