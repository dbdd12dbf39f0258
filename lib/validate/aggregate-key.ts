/**
 * The property an aggregate is returned under, and the spelling its name is matched in: every capital letter
 * becomes `_` and the lower-case letter (`postsViewsSum` → `posts_views_sum`, `posts_count` unchanged), the
 * rule `SnakeCase` of `AggregateRecord` types.
 */
export function aggregateKey(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}
