import type { Knex } from 'knex'

/** A key value read from a row, as it can be bound in `IN (…)`; `null` when it cannot be bound. */
export function bindableKey(value: unknown): Knex.Value {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString()
  if (value instanceof Date || Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value)
  return null
}
