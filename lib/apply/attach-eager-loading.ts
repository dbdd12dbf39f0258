import type { Knex } from 'knex'
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
 * `strip` (selected only for matching) removed. Works for `select` and `.first()`; other methods
 * (`count`, `pluck`, `del`…) resolve as knex would. A `.clone()` of the builder is a plain knex builder.
 * Each run loads at most `maxEagerRows` related rows in all (see {@link RowBudget}).
 */
export function attachEagerLoading(
  builder: Knex.QueryBuilder,
  table: string,
  nodes: readonly WithNode[],
  map: RelationMap,
  strip: readonly string[],
  guards: RowGuards,
  maxEagerRows: number,
): void {
  if (nodes.length === 0 && strip.length === 0) return
  // Checks the option now, as a server bug, rather than when the query runs.
  new RowBudget(maxEagerRows)
  const run = (Object.getPrototypeOf(builder) as { then: Then }).then
  // A method, not a function assigned to a name: loaders that keep function names (tsx, esbuild
  // `keepNames`) would otherwise pay a `defineProperty` for it on every request.
  const methods: { then: Then } = {
    then(onFulfilled, onRejected) {
      const rows = run.call(this).then(async (result) => {
        const loaded = rowsOf(this, result)
        if (loaded !== undefined) {
          await loadWithTree(this.client, table, loaded, nodes, map, { guards, budget: new RowBudget(maxEagerRows) })
          stripColumns(loaded, strip)
        }
        return result
      })
      return rows.then(onFulfilled, onRejected)
    },
  }
  Object.defineProperty(builder, 'then', { value: methods.then, configurable: true, writable: true })
}

function rowsOf(builder: Knex.QueryBuilder, result: unknown): Row[] | undefined {
  const internals = internalsOf(builder)
  if (internals._statements.some((statement) => statement.type === 'aggregate' || statement.type === 'aggregateRaw')) return undefined
  if (internals._method === 'select' && Array.isArray(result)) return result as Row[]
  if (internals._method === 'first' && typeof result === 'object' && result !== null) return [result as Row]
  return undefined
}
