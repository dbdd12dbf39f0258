import type { UtcInstant } from '../values.ts'

/** `YYYY-MM-DD HH:MM:SS[.sss]` in UTC; milliseconds only when not zero. */
export function formatUtc(value: UtcInstant): string {
  const { iso } = value
  const base = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
  const ms = iso.slice(20, 23)
  return ms === '000' ? base : `${base}.${ms}`
}
