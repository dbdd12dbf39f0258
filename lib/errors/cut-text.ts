/** Longest client text (a key, a value, a name) echoed in an error, in UTF-16 code units. */
export const MAX_ECHO_LENGTH = 100
/** Longest error `message`. */
export const MAX_MESSAGE_LENGTH = 400
/** Most entries of an error's `allowed`. */
export const MAX_ALLOWED = 50

const LONG_QUOTED = new RegExp(`'([^']{${MAX_ECHO_LENGTH + 1},})'`, 'g')

/**
 * `text` when it fits in `max` characters, else its first `max` characters, an ellipsis and its
 * original length: `wheres[0][aaaa…(1048576 characters)`. A surrogate pair is never split.
 */
export function boundText(text: string, max = MAX_ECHO_LENGTH): string {
  if (text.length <= max) return text
  const code = text.charCodeAt(max - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max
  return `${text.slice(0, end)}…(${text.length} characters)`
}

/**
 * A message whose quoted client texts (`'…'`) are each cut by {@link boundText}, occurrences of
 * `param` too, then the whole cut to {@link MAX_MESSAGE_LENGTH}.
 */
export function boundMessage(message: string, param: string): string {
  let bounded = message
  const cutParam = boundText(param)
  if (cutParam !== param) bounded = bounded.split(param).join(cutParam)
  if (bounded.length > MAX_ECHO_LENGTH) {
    bounded = bounded.replace(LONG_QUOTED, (quoted, inner: string) =>
      inner === cutParam ? quoted : `'${boundText(inner)}'`,
    )
  }
  return boundText(bounded, MAX_MESSAGE_LENGTH)
}

/** At most {@link MAX_ALLOWED} entries, each cut by {@link boundText}. */
export function boundList(list: readonly string[]): string[] {
  const kept = list.length > MAX_ALLOWED ? list.slice(0, MAX_ALLOWED) : list
  return kept.map((entry) => boundText(entry))
}
