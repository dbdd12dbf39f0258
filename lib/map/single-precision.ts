/**
 * Whether a single-precision float (PostgreSQL `real`/`float4`, MySQL/MariaDB `FLOAT`) can hold `value`: a
 * finite number whose rounding to single precision neither overflows (beyond ±3.4028235e38) nor underflows to
 * zero (below about 1.4e-45). PostgreSQL refuses a bound value outside this range for a `real` column.
 *
 * @example
 * fitsSinglePrecision(3.5)       // true
 * fitsSinglePrecision(3.5e38)    // false
 * fitsSinglePrecision(1e-46)     // false
 */
export function fitsSinglePrecision(value: number): boolean {
  const single = Math.fround(value)
  return Number.isFinite(single) && (single !== 0 || value === 0)
}
