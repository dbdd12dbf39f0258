/**
 * Whether `text` matches a `like` pattern as the library defines it on every database: `%` any run, `_`
 * one character, a backslash escapes the next character; ASCII letters match either case. For checking
 * the rows a pattern must return.
 */
export function likeMatches(pattern: string, text: string): boolean {
  const fold = (value: string): string => value.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
  let source = ''
  const chars = [...pattern]
  for (let i = 0; i < chars.length; i++) {
    let char = chars[i] ?? ''
    const escaped = char === '\\' && i + 1 < chars.length
    if (escaped) char = chars[++i] ?? ''
    if (!escaped && char === '%') source += '[\\s\\S]*'
    else if (!escaped && char === '_') source += '[\\s\\S]'
    else source += fold(char).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${source}$`, 'u').test(fold(text))
}
