import type { Knex } from 'knex'

/**
 * Tooling: what the CLI, `estimatedCount` and `checkRelationMap` read (EXPLAIN, estimates, catalogs' storage).
 * Part of `Dialect`.
 */
export interface DialectTooling {
  /**
   * How to read the planner's estimate of a query's row count, where the database exposes one: `sql` wraps
   * the query (`explain (format json) …`), `read` takes the estimate from the result.
   */
  readonly estimateRows?: { sql(query: string): string; read(result: unknown): number | undefined }
  /** How the `explain` CLI asks for the plan of a statement, and reads the database's answer as lines of text. */
  readonly explain: { sql(query: string): string; lines(result: unknown): string[] }
  /** The transaction the `explain` CLI runs a request in (and rolls back): read-only where the database has it. */
  readonly explainTransaction: Knex.TransactionConfig
  /**
   * Whether a `datetime` column holds whatever is written to it, in the form its `storage` declares (SQLite, which
   * has no date-time type), so that `checkRelationMap` samples its values; other databases have date-time types.
   */
  readonly datetimeStorage: boolean
}
