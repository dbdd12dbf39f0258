import { performance } from 'node:perf_hooks'

/** Time per operation, in milliseconds, over the samples of one measurement. */
export interface Timing {
  median: number
  p95: number
  /** Samples taken (each the mean of one batch of `batch` operations). */
  samples: number
  /** Operations per sample. */
  batch: number
}

/** Two operations measured side by side in the same process. */
export interface Comparison {
  ours: Timing
  baseline: Timing
  /**
   * Median over rounds of `ours / baseline`, each round timing one sample of each back to back: below 1
   * means ours is faster. Pairing keeps a burst of load on the machine from landing on one side only.
   */
  ratio: number
}

/** How long to measure. */
export interface Budget {
  /** Warm-up time per operation before sampling (JIT, caches, connections); default 300 ms. */
  warmupMs?: number
  /** Sampling time for both operations together; default 2,000 ms. */
  timeMs?: number
  /** Target duration of one sample: fast operations are batched up to it; default 5 ms. */
  sampleMs?: number
  /** Fewest samples per operation, even past `timeMs`; default 5. */
  minSamples?: number
  /** Most samples per operation; default 10,000. */
  maxSamples?: number
  /**
   * `wall` (default) times elapsed real time, right for operations that wait on a database or the
   * network; `cpu` times this process's CPU time (user + system), which other processes on a shared
   * machine do not inflate, for purely computational operations.
   */
  clock?: 'wall' | 'cpu'
}

/** An operation to time: synchronous, or returning a promise or thenable (a knex builder) to await. */
export type Operation = () => unknown

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function'

const DEFAULTS: Required<Budget> = {
  warmupMs: 300,
  timeMs: 2000,
  sampleMs: 5,
  minSamples: 5,
  maxSamples: 10_000,
  clock: 'wall',
}

const clocks: Record<Required<Budget>['clock'], () => number> = {
  wall: () => performance.now(),
  cpu: () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  },
}

async function runBatch(operation: Operation, batch: number, clock: () => number): Promise<number> {
  const start = clock()
  for (let i = 0; i < batch; i++) {
    const result = operation()
    if (isThenable(result)) await result
  }
  return (clock() - start) / batch
}

/** Runs `operation` for `warmupMs` and returns how many operations fill one sample of `sampleMs`. */
async function calibrate(operation: Operation, warmupMs: number, sampleMs: number): Promise<number> {
  const start = performance.now()
  let count = 0
  do {
    const result = operation()
    if (isThenable(result)) await result
    count++
  } while (performance.now() - start < warmupMs)
  const perOperation = (performance.now() - start) / count
  return Math.max(1, Math.round(sampleMs / perOperation))
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  )
}

function summarize(samples: number[], batch: number): Timing {
  const sorted = [...samples].sort((a, b) => a - b)
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), samples: sorted.length, batch }
}

/**
 * Measures `ours` against `baseline` in the same process, interleaved (A B B A …) so that drift, GC and
 * other load on the machine fall on both alike. Each gets a warm-up; fast operations are batched so one
 * sample lasts about `sampleMs`; sampling stops after `timeMs` (but not before `minSamples` each).
 * Reports the median and p95 time per operation and the ratio of the medians.
 */
export async function compare(ours: Operation, baseline: Operation, budget: Budget = {}): Promise<Comparison> {
  const settings = { ...DEFAULTS, ...budget }
  const oursBatch = await calibrate(ours, settings.warmupMs, settings.sampleMs)
  const baselineBatch = await calibrate(baseline, settings.warmupMs, settings.sampleMs)
  const clock = clocks[settings.clock]
  const oursSamples: number[] = []
  const baselineSamples: number[] = []
  const ratios: number[] = []
  const start = performance.now()
  for (let round = 0; ; round++) {
    if (round % 2 === 0) {
      oursSamples.push(await runBatch(ours, oursBatch, clock))
      baselineSamples.push(await runBatch(baseline, baselineBatch, clock))
    } else {
      baselineSamples.push(await runBatch(baseline, baselineBatch, clock))
      oursSamples.push(await runBatch(ours, oursBatch, clock))
    }
    ratios.push((oursSamples[round] ?? Number.NaN) / (baselineSamples[round] ?? Number.NaN))
    const elapsed = performance.now() - start
    const enough = oursSamples.length >= settings.minSamples
    if ((enough && elapsed >= settings.timeMs) || oursSamples.length >= settings.maxSamples) break
  }
  const oursTiming = summarize(oursSamples, oursBatch)
  const baselineTiming = summarize(baselineSamples, baselineBatch)
  return { ours: oursTiming, baseline: baselineTiming, ratio: median(ratios) }
}

/** Measures one operation alone (same method as {@link compare}). */
export async function measure(operation: Operation, budget: Budget = {}): Promise<Timing> {
  const settings = { ...DEFAULTS, ...budget }
  const batch = await calibrate(operation, settings.warmupMs, settings.sampleMs)
  const clock = clocks[settings.clock]
  const samples: number[] = []
  const start = performance.now()
  while (samples.length < settings.maxSamples) {
    samples.push(await runBatch(operation, batch, clock))
    if (samples.length >= settings.minSamples && performance.now() - start >= settings.timeMs) break
  }
  return summarize(samples, batch)
}
