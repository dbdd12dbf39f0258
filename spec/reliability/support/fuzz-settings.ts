/** How one property runs: a fixed seed (printed, so any failure replays) and a number of cases. */
export interface FuzzSettings {
  seed: number
  numRuns: number
}

/** The seed every property uses unless `FUZZ_SEED` says otherwise. */
export const DEFAULT_SEED = 20_241_121

function positiveInteger(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === '') return undefined
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got '${text}'`)
  return value
}

/**
 * The settings of one property: `FUZZ_SEED` (default {@link DEFAULT_SEED}) and `FUZZ_RUNS` (default
 * `defaultRuns`, kept small so `npm test` stays fast; `npm run fuzz` raises it).
 *
 * @example
 * const { seed, numRuns } = fuzzSettings(300)
 * await fc.assert(property, { seed, numRuns })
 */
export function fuzzSettings(defaultRuns: number): FuzzSettings {
  return {
    seed: positiveInteger(process.env.FUZZ_SEED, 'FUZZ_SEED') ?? DEFAULT_SEED,
    numRuns: positiveInteger(process.env.FUZZ_RUNS, 'FUZZ_RUNS') ?? defaultRuns,
  }
}
