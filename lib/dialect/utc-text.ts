const { fromCharCode } = String

/**
 * Whether `text` has `-`, `-`, a `T` or space, `:` and `:` where `YYYY-MM-DD HH:MM:SS` has them, and digits elsewhere
 * (to position 19).
 */
export function isDatetimeShape(text: string): boolean {
  for (let i = 0; i < 19; i++) {
    const code = text.charCodeAt(i)
    if (i === 4 || i === 7) {
      if (code !== 45) return false
    } else if (i === 10) {
      if (code !== 32 && code !== 84) return false
    } else if (i === 13 || i === 16) {
      if (code !== 58) return false
    } else if (code < 48 || code > 57) return false
  }
  return true
}

/** Whether the characters of `text` from `start` (inclusive) to `end` (exclusive) are digits. */
export function isDigits(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i)
    if (code < 48 || code > 57) return false
  }
  return true
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` of the wall-clock fields of `text` (whose first 19 characters have
 * {@link isDatetimeShape}), read as UTC, with the first `digits` (0–3) characters from position 20 as the
 * milliseconds, padded with zeros. Built as one string: a date-time column read row by row makes this the
 * hot path of normalizing, where joined slices cost several allocations per value.
 */
export function isoOfWallClock(text: string, digits: number): string {
  return fromCharCode(
    text.charCodeAt(0),
    text.charCodeAt(1),
    text.charCodeAt(2),
    text.charCodeAt(3),
    45,
    text.charCodeAt(5),
    text.charCodeAt(6),
    45,
    text.charCodeAt(8),
    text.charCodeAt(9),
    84,
    text.charCodeAt(11),
    text.charCodeAt(12),
    58,
    text.charCodeAt(14),
    text.charCodeAt(15),
    58,
    text.charCodeAt(17),
    text.charCodeAt(18),
    46,
    digits > 0 ? text.charCodeAt(20) : 48,
    digits > 1 ? text.charCodeAt(21) : 48,
    digits > 2 ? text.charCodeAt(22) : 48,
    90,
  )
}
