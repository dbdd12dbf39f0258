/**
 * A client's `like` pattern, well-formed on every database: a backslash escapes the next character, so
 * a pattern ending in a lone backslash (a database error on PostgreSQL) gets that backslash escaped,
 * to match a literal backslash. `%` and `_` stay wildcards.
 */
export function likePattern(pattern: string): string {
  const trailing = /\\+$/.exec(pattern)?.[0].length ?? 0
  return trailing % 2 === 1 ? `${pattern}\\` : pattern
}
