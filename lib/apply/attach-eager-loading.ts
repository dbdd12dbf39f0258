import type { Knex } from 'knex'
import type { BoundOptions } from '../bound/bound-options.ts'
import { driverReadingOf } from '../dialect/driver-reading.ts'
import { convertAggregates } from '../eager-load/convert-aggregates.ts'
import { loadWithTree } from '../eager-load/load-with-tree.ts'
import { RowBudget } from '../eager-load/row-budget.ts'
import { rowsOfTable, stripColumns } from '../eager-load/rows.ts'
import type { RowValues } from '../normalize/row-values.ts'
import type { RelationMap } from '../relation-map.ts'
import type { PlannedAggregate, WithNode } from '../validate/query-plan.ts'
import { attachRowReading, type ReadAs } from './attach-row-reading.ts'
import type { RowGuards } from '../guard/row-guards.ts'

/**
 * Makes every way of reading `builder` (see `attachRowReading`) give its rows with `nodes` eager-loaded,
 * the key columns in `strip` (selected only for matching) removed, and, unless `values` is `'driver'`, the
 * allow-listed columns of every row (eager-loaded ones included) as the JSON values of their declared types.
 * Each read loads at most `maxEagerRows` related rows in all (see `RowBudget`); every statement it runs keeps
 * `bound` (a `timeout` from the first statement, a `signal`). The `aggregates` of the rows get their JSON types
 * (see `convertAggregates`) whatever `values` says. `readAs` gives each read its statement (see `attachRowReading`).
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
  values: RowValues = 'json',
  aggregates: readonly PlannedAggregate[] = [],
  readAs?: ReadAs,
): void {
  const json = values === 'json'
  const bounded = bound.timeout !== undefined || bound.signal !== undefined
  // Checks the option now, as a server bug, rather than when the query runs.
  new RowBudget(maxEagerRows)
  if (nodes.length === 0 && strip.length === 0 && !json && !bounded && aggregates.length === 0) return
  attachRowReading(
    builder,
    async (client, rows, within) => {
      const normalize = json ? rowsOfTable(client, map) : undefined
      convertAggregates(rows, aggregates, driverReadingOf(client))
      if (nodes.length > 0) {
        const budget = new RowBudget(maxEagerRows)
        await loadWithTree(client, table, rows, nodes, map, {
          guards,
          budget,
          ...(normalize === undefined ? {} : { normalize }),
          ...(within === undefined ? {} : { bound: within }),
        })
      }
      stripColumns(rows, strip)
      normalize?.(table, rows)
    },
    nodes.length > 0,
    bound,
    readAs,
  )
}
