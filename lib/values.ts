import type { DatetimeStorage } from './relation-map.ts'

/**
 * A client's value for a `bigint` or `decimal` column, kept as its exact decimal text (`'9007199254740993'`,
 * `'-4.99'`), which each dialect binds so that the database compares it exactly, never through a double.
 */
export class ExactNumber {
  readonly text: string
  readonly kind: 'bigint' | 'decimal'

  constructor(text: string, kind: 'bigint' | 'decimal') {
    this.text = text
    this.kind = kind
  }
}

/**
 * A client's datetime, normalised to a UTC instant and kept as its ISO 8601 text
 * (`YYYY-MM-DDTHH:MM:SS.sssZ`, years 0001–9999), from which each dialect derives its binding without
 * going through `Date` again.
 */
export class UtcInstant {
  readonly iso: string
  /** How the column compared with it stores instants on SQLite (see `DatetimeStorage`). */
  readonly storage: DatetimeStorage

  constructor(iso: string, storage: DatetimeStorage = 'text') {
    this.iso = iso
    this.storage = storage
  }
}
