const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

/** `YYYY-MM-DD HH:MM:SS[.sss]` in UTC; milliseconds only when not zero. */
export function formatUtc(value: Date): string {
  const base =
    `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())} ` +
    `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`
  const ms = value.getUTCMilliseconds()
  return ms === 0 ? base : `${base}.${pad(ms, 3)}`
}
