import type { Knex } from 'knex'
import { chunk } from './chunk.ts'
import type { Row } from './row.ts'
import { toRows } from './to-rows.ts'

/** Runs `query(keys)` once per chunk of `keys` (sequentially) and concatenates the rows, in chunk order. */
export async function fetchChunked(
  keys: readonly Knex.Value[],
  chunkSize: number,
  query: (keys: Knex.Value[]) => Knex.QueryBuilder,
): Promise<Row[]> {
  const rows: Row[] = []
  for (const keysOfChunk of chunk(keys, chunkSize)) {
    const result: unknown = await query(keysOfChunk)
    rows.push(...toRows(result))
  }
  return rows
}
