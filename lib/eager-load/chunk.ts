/** `values` split into consecutive slices of at most `size` (none for an empty list). */
export function chunk<T>(values: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`knex-query-params: chunk size must be a positive integer, got ${size}`)
  const chunks: T[][] = []
  for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size))
  return chunks
}
