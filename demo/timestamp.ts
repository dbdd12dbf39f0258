const pad = (value: number, width = 2): string => String(value).padStart(width, '0')

/**
 * A UTC instant as `YYYY-MM-DD HH:MM:SS` (whole seconds), the text every demo database stores for a
 * timestamp when its session runs in UTC (SQLite keeps it as text).
 *
 * @example
 * databaseTimestamp(new Date('2024-01-02T03:04:05.678Z')) // '2024-01-02 03:04:05'
 */
export function databaseTimestamp(value: Date): string {
  return (
    `${pad(value.getUTCFullYear(), 4)}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())} ` +
    `${pad(value.getUTCHours())}:${pad(value.getUTCMinutes())}:${pad(value.getUTCSeconds())}`
  )
}
