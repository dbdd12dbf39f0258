/** Decodes one `application/x-www-form-urlencoded` component; a malformed escape keeps the text as sent (as `qs` does). */
export function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text
  if (!spaced.includes('%')) return spaced
  try {
    return decodeURIComponent(spaced)
  } catch {
    return spaced
  }
}
