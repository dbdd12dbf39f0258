import type { Timing } from './timing.ts'

/** The database a figure ran on; `none` for figures that only build SQL. */
export type BenchDialect = 'sqlite' | 'postgres' | 'mysql' | 'none'

/** One measured operation: time per operation, and the queries one operation sends (when it talks to a database). */
export interface Measured {
  label: string
  /** Milliseconds per operation, or requests per second for HTTP figures (see `unit`). */
  median: number
  p95: number
  samples: number
  queries?: number
}

/** One row of the results: ours against one baseline. */
export interface BenchResult {
  figure: string
  name: string
  dialect: BenchDialect
  unit: 'ms' | 'req/s'
  ours: Measured
  baseline: Measured
  /**
   * Time ratio `ours / baseline` (below 1: ours is faster); for `req/s`, throughput ratio
   * `ours / baseline` (above 1: ours is faster).
   */
  ratio: number
  /** The target, e.g. `≤ 1.15` or `≥ 0.9`; absent for context rows. */
  target?: { op: '<=' | '<' | '>='; value: number }
  met?: boolean
  note?: string
}

/** A timed operation as a {@link Measured}. */
export function measured(label: string, timing: Timing, queries?: number): Measured {
  const result: Measured = { label, median: timing.median, p95: timing.p95, samples: timing.samples }
  if (queries !== undefined) result.queries = queries
  return result
}

/** Whether `ratio` meets `target`. */
export function meets(ratio: number, target: NonNullable<BenchResult['target']>): boolean {
  if (target.op === '<=') return ratio <= target.value
  if (target.op === '<') return ratio < target.value
  return ratio >= target.value
}

/** Builds a result row, deciding `met` from the target. */
export function result(row: Omit<BenchResult, 'met'>): BenchResult {
  return row.target === undefined ? row : { ...row, met: meets(row.ratio, row.target) }
}
