/**
 * How many wildcards a `like` pattern has: each `%` and `_` not escaped by a backslash (a backslash escapes
 * the character after it, as `likePattern` writes the pattern for every database).
 */
export function likeWildcards(pattern: string): number {
  let count = 0
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i)
    if (code === 92) i++
    else if (code === 37 || code === 95) count++
  }
  return count
}
