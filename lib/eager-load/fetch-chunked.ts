import type { Knex } from 'knex'
import { runBounded } from '../bound/run-within-bound.ts'
import { readAsJson } from '../dialect/json-read-options.ts'
import type { StatementBound } from '../bound/statement-bound.ts'
import type { RowBudget } from './row-budget.ts'
import { toRows } from './to-rows.ts'
import type { Row } from '../normalize/row-values.ts'

/** `values` split into consecutive slices of at most `size` (none for an empty list). */
export function chunk<T>(values: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`knex-query-params: chunk size must be a positive integer, got ${size}`)
  const chunks: T[][] = []
  for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size))
  return chunks
}

/**
 * Runs `query(keys, most)` once per chunk of `keys` (sequentially, each within `bound`) and concatenates the rows,
 * in chunk order. `most` is what `budget` has left plus one, so a query never returns more rows than it takes to
 * tell that the budget is crossed; the budget throws then (naming the `with` entry `param`), before the next
 * chunk. With `json`, each statement asks the driver for values close to their JSON form (see `jsonReadOptions`).
 * Rows are appended one by one: spreading a result into `push` fails past V8's argument limit (about
 * 120,000 rows).
 */
export async function fetchChunked<Key = Knex.Value>(
  keys: readonly Key[],
  chunkSize: number,
  budget: RowBudget,
  param: string,
  query: (keys: Key[], most: number) => Knex.QueryBuilder,
  bound?: StatementBound,
  json = false,
): Promise<Row[]> {
  const rows: Row[] = []
  for (const keysOfChunk of chunk(keys, chunkSize)) {
    const statement = query(keysOfChunk, budget.remaining + 1)
    const result: unknown = await runBounded(json ? readAsJson(statement) : statement, bound)
    const fetched = toRows(result)
    budget.spend(fetched.length, param)
    for (const row of fetched) rows.push(row)
  }
  return rows
}
