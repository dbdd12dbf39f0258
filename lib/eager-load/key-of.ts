/**
 * The string a key value is matched on, so that `1`, `1n` and `'1'` meet; `null` for a missing key.
 * Binary keys match on their hex, dates on their ISO instant.
 */
export function keyOf(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return `\u0000hex:${Buffer.from(value).toString('hex')}`
  if (value instanceof Date) return value.toISOString()
  return String(value)
}
