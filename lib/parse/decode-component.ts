const MALFORMED_ESCAPE = /%(?![\da-f]{2})/gi

/**
 * Decodes one `application/x-www-form-urlencoded` component. A malformed escape (`%ZZ`, `100%`) keeps
 * the text as sent (as `qs` does); well-formed escapes that are not UTF-8 (`%FF%FE`) give `undefined`,
 * for the caller to reject.
 */
export function decodeComponent(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return isUtf8Escaped(spaced) ? spaced : undefined
  }
}

/** Whether the well-formed escapes of `text`, a malformed `%` read as itself, decode as UTF-8. */
function isUtf8Escaped(text: string): boolean {
  try {
    decodeURIComponent(text.replace(MALFORMED_ESCAPE, '%25'))
    return true
  } catch {
    return false
  }
}
