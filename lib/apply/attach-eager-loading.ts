import type { Knex } from 'knex'
import type { BoundOptions } from '../bound/bound-options.ts'
import { BOUNDED_RUN, type BoundedRun } from '../bound/bounded-run.ts'
import { runBounded } from '../bound/run-bounded.ts'
import { statementCopy } from '../bound/statement-copy.ts'
import { StatementBound } from '../bound/statement-bound.ts'
import { loadWithTree } from '../eager-load/load-with-tree.ts'
import { RowBudget } from '../eager-load/row-budget.ts'
import type { Row } from '../eager-load/row.ts'
import { stripColumns } from '../eager-load/strip-columns.ts'
import type { RelationMap } from '../relation-map.ts'
import type { WithNode } from '../validate/with-tree.ts'
import { internalsOf } from './knex-internals.ts'
import type { RowGuards } from './row-guards.ts'

type Then = (this: Knex.QueryBuilder, onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) => Promise<unknown>

/**
 * Makes awaiting `builder` resolve to its rows with `nodes` eager-loaded and the key columns in
 * `strip` (selected only for matching) removed, every statement within `bound` (a `timeout` from the
 * first statement, a `signal`). Works for `select` and `.first()`; other methods (`count`, `pluck`,
 * `del`…) resolve as knex would. A `.clone()` of the builder is a plain knex builder. Each run loads at
 * most `maxEagerRows` related rows in all (see {@link RowBudget}).
 */
export function attachEagerLoading(
  builder: Knex.QueryBuilder,
  table: string,
  nodes: readonly WithNode[],
  map: RelationMap,
  strip: readonly string[],
  guards: RowGuards,
  maxEagerRows: number,
  bound: BoundOptions = {},
): void {
  // Checks the option now, as a server bug, rather than when the query runs.
  new RowBudget(maxEagerRows)
  const bounded = bound.timeout !== undefined || bound.signal !== undefined
  if (nodes.length === 0 && strip.length === 0 && !bounded) return
  const run = (Object.getPrototypeOf(builder) as { then: Then }).then
  const execute = async (self: Knex.QueryBuilder, within: StatementBound | undefined): Promise<unknown> => {
    const result = within === undefined ? await run.call(self) : await runBounded(statementCopy(self), within)
    const loaded = rowsOf(self, result)
    if (loaded !== undefined) {
      const budget = new RowBudget(maxEagerRows)
      await loadWithTree(self.client, table, loaded, nodes, map, within === undefined ? { guards, budget } : { guards, budget, bound: within })
      stripColumns(loaded, strip)
    }
    return result
  }
  // A method, not a function assigned to a name: loaders that keep function names (tsx, esbuild
  // `keepNames`) would otherwise pay a `defineProperty` for it on every request.
  const methods: { then: Then } = {
    then(onFulfilled, onRejected) {
      return execute(this, StatementBound.of(bound)).then(onFulfilled, onRejected)
    },
  }
  const boundedRun: BoundedRun = { options: bound, run: execute }
  Object.defineProperty(builder, 'then', { value: methods.then, configurable: true, writable: true })
  Object.defineProperty(builder, BOUNDED_RUN, { value: boundedRun, configurable: true, writable: true })
}

function rowsOf(builder: Knex.QueryBuilder, result: unknown): Row[] | undefined {
  const internals = internalsOf(builder)
  if (internals._statements.some((statement) => statement.type === 'aggregate' || statement.type === 'aggregateRaw')) return undefined
  if (internals._method === 'select' && Array.isArray(result)) return result as Row[]
  if (internals._method === 'first' && typeof result === 'object' && result !== null) return [result as Row]
  return undefined
}
