import type { Knex } from 'knex'
import { runBounded } from '../bound/run-within-bound.ts'
import type { StatementBound } from '../bound/statement-bound.ts'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import { convertAggregates } from '../eager-load/convert-aggregates.ts'
import { loadWithTree } from '../eager-load/load-with-tree.ts'
import { RowBudget } from '../eager-load/row-budget.ts'
import { stripColumns } from '../eager-load/strip-columns.ts'
import { rowsOfTable } from '../eager-load/table-normalizer.ts'
import type { RowGuards } from '../guard/row-guards.ts'
import { runAsKnex, statementCopy } from '../knex/builder-methods.ts'
import { methodOf, selectsAggregate } from '../knex/builder-state.ts'
import type { Row } from '../normalize/row-values.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate, WithNode } from '../validate/query-plan.ts'
import { chooseGuardedForm } from './choose-frequency-form.ts'
import { guardProbeOf, readInForm } from './page-rewrite.ts'
import { readStateOf } from './read-state.ts'

/**
 * The statement that runs when a builder is read: a copy of it with statement options (see `jsonReadOptions`),
 * or `undefined` to run the builder as it is.
 */
export type ReadAs = (builder: Knex.QueryBuilder) => Knex.QueryBuilder | undefined

/** What becomes of the rows a read returned (steps 3 to 6 of {@link readBuilder}). */
export interface RowSteps {
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
  /** Whether the allow-listed columns become the JSON values of their declared types. */
  json: boolean
  /** The aggregates the rows carry, which get their JSON types whatever `json` says (see `convertAggregates`). */
  aggregates: readonly PlannedAggregate[]
  /** The builder's `withSchema`, for the tables of the eager-loading queries (see `EagerLoadOptions.schema`). */
  schema: string | undefined
}

/** How a builder from `applyQueryParams` is read, decided when it was built. */
export interface ReadPipeline {
  rows: RowSteps
  /** Each read's statement (step 1). */
  readAs: ReadAs | undefined
  /** How long the form a guarded page's probe chose is remembered (see `chooseGuardedForm`); 0: probe on every read. */
  frequencyMemoMs: number
}

/**
 * Reads `builder` as awaiting it does, within `bound`, in six steps:
 * 1. {@link chooseStatement}: the statement that runs (its statement options; for a guarded page, the form its
 *    probe chose, the probe run here);
 * 2. {@link runWithinBound}: run it within the request's time bound;
 * 3. to 6. {@link finishRows}: the aggregates' values, eager loading, the hidden keys stripped, the JSON values.
 * Other methods than `select` and `first` (`count`, `pluck`…) resolve after step 2 as knex would.
 */
export async function readBuilder(
  pipeline: ReadPipeline,
  builder: Knex.QueryBuilder,
  bound: StatementBound | undefined,
): Promise<unknown> {
  const { statement } = await chooseStatement(pipeline, builder, bound)
  const result = await runWithinBound(builder, statement, bound)
  const rows = rowsOf(builder, result)
  if (rows !== undefined) await finishRows(pipeline.rows, builder.client, rows, bound, readStateOf(builder).seeRawRows)
  return result
}

/**
 * Step 1: the statement a read of `builder` runs (see {@link ReadAs}), in the one form a guarded page's probe chose.
 * Wrapped: a promise resolved with a builder would await the builder itself.
 */
export async function chooseStatement(
  pipeline: ReadPipeline,
  builder: Knex.QueryBuilder,
  bound: StatementBound | undefined,
): Promise<{ statement: Knex.QueryBuilder }> {
  let statement = statementOf(pipeline, builder)
  const probe = guardProbeOf(builder)
  if (probe !== undefined) {
    if (statement === builder) statement = statementCopy(builder)
    readInForm(statement, await chooseGuardedForm(builder, probe, bound, pipeline.frequencyMemoMs))
  }
  return { statement }
}

/** The statement a read of `builder` runs, without the probe of step 1 (a stream reads both forms in one). */
export function statementOf(pipeline: ReadPipeline, builder: Knex.QueryBuilder): Knex.QueryBuilder {
  return pipeline.readAs?.(builder) ?? builder
}

/** Step 2: runs `statement` (made for a read of `builder`) within `bound`, on a connection of its own. */
function runWithinBound(
  builder: Knex.QueryBuilder,
  statement: Knex.QueryBuilder,
  bound: StatementBound | undefined,
): Promise<unknown> {
  if (bound === undefined) return runAsKnex(statement)
  return runBounded(statement === builder ? statementCopy(builder) : statement, bound)
}

/**
 * Steps 3 to 6, in place, on the rows of one read (or of one streamed batch), after step 0: `seeRaw` (a keyset
 * page's, see `copyPositions`) reads the rows as the driver returned them, before any value is converted;
 * 3. the aggregates' values; 4. the `with` relations loaded, within `bound` and the row budget; 5. the keys selected
 * only for matching stripped; 6. the allow-listed columns of every row (loaded ones included) as the JSON values of
 * their declared types.
 */
export async function finishRows(
  steps: RowSteps,
  client: Knex.Client,
  rows: Row[],
  bound: StatementBound | undefined,
  seeRaw?: (rows: Row[]) => void,
): Promise<void> {
  seeRaw?.(rows)
  const normalize = steps.json ? rowsOfTable(client, steps.map) : undefined
  convertAggregates(rows, steps.aggregates, driverReadingOf(client))
  if (steps.nodes.length > 0) {
    await loadWithTree(client, steps.table, rows, steps.nodes, steps.map, {
      guards: steps.guards,
      budget: new RowBudget(steps.maxEagerRows),
      ...(normalize === undefined ? {} : { normalize }),
      ...(bound === undefined ? {} : { bound }),
      ...(steps.schema === undefined ? {} : { schema: steps.schema }),
    })
  }
  stripColumns(rows, steps.strip)
  normalize?.(steps.table, rows)
}

/** Whether a read of `builder` gives rows to finish: a `select` or `first` of rows, not of an aggregate. */
export function readsRows(builder: Knex.QueryBuilder): boolean {
  if (selectsAggregate(builder)) return false
  const method = methodOf(builder)
  return method === 'select' || method === 'first' || method === undefined
}

function rowsOf(builder: Knex.QueryBuilder, result: unknown): Row[] | undefined {
  if (!readsRows(builder)) return undefined
  const method = methodOf(builder)
  if (method === 'select' && Array.isArray(result)) return result as Row[]
  if (method === 'first' && typeof result === 'object' && result !== null) return [result as Row]
  return undefined
}
