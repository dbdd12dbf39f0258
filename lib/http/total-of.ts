/** The `total` of a count query's result (its first row), as a number; 0 when missing. */
export function totalOf(result: unknown): number {
  const row: unknown = Array.isArray(result) ? result[0] : result
  const total = typeof row === 'object' && row !== null && 'total' in row ? row.total : undefined
  return Number(total ?? 0)
}
