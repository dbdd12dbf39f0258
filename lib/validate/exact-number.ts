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
