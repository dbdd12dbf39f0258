/**
 * A value decoded from a query string before validation: text, `null` (a key without `=`), a list, or a nested object.
 */
export type RawValue = string | number | boolean | null | undefined | RawObject | readonly RawValue[]

/** A nested object decoded from bracket keys. */
export interface RawObject {
  readonly [key: string]: RawValue
}

/** Whether a raw value is a nested object (not a list, not a scalar). */
export function isRawObject(value: RawValue | unknown): value is RawObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
