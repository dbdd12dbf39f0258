import type { Knex } from 'knex'
import { runBounded } from '../bound/run-bounded.ts'
import type { StatementBound } from '../bound/statement-bound.ts'
import { chunk } from './chunk.ts'
import type { Row } from './row.ts'
import { toRows } from './to-rows.ts'

/** Runs `query(keys)` once per chunk of `keys` (sequentially, each within `bound`) and concatenates the rows, in chunk order. */
export async function fetchChunked(
  keys: readonly Knex.Value[],
  chunkSize: number,
  query: (keys: Knex.Value[]) => Knex.QueryBuilder,
  bound?: StatementBound,
): Promise<Row[]> {
  const rows: Row[] = []
  for (const keysOfChunk of chunk(keys, chunkSize)) {
    const result: unknown = await runBounded(query(keysOfChunk), bound)
    rows.push(...toRows(result))
  }
  return rows
}
