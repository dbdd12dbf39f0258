import type { RelationMap } from '../relation-map.ts'

/**
 * A column name in snake_case and in camelCase, the two spellings a client may send whatever naming the
 * map uses: `createdAt` and `created_at` both give `['created_at', 'createdAt']`, as do `CreatedAt` and
 * (for a PascalCase schema's `ArtistId`) `['artist_id', 'artistId']`.
 *
 * @example
 * columnSpellings('stripeCustomerId')  // ['stripe_customer_id', 'stripeCustomerId']
 */
export function columnSpellings(name: string): readonly [snake: string, camel: string] {
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
  return [snake, snake.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())]
}

const byMap = new WeakMap<RelationMap, Map<string, ReadonlyMap<string, string>>>()

/**
 * The declared column of `table` that `name` spells in snake_case or camelCase, whichever naming the map
 * uses (see {@link columnSpellings}), or `undefined`. The map check makes the answer unique. A database
 * column declared under another client name (`column: …`) is only reached through that name's spellings.
 * Memoised per map object and table.
 *
 * @example
 * columnBySpelling(map, 'orders', 'created_at')  // 'createdAt' when the map declares createdAt
 */
export function columnBySpelling(map: RelationMap, table: string, name: string): string | undefined {
  let tables = byMap.get(map)
  if (tables === undefined) byMap.set(map, (tables = new Map()))
  let names = tables.get(table)
  if (names === undefined) tables.set(table, (names = spellingsOf(Object.keys(map[table]?.columns ?? {}))))
  return names.get(name)
}

/**
 * Each column name and its spellings, with the column they name. The first column to claim a name keeps
 * it; `onClash(name, other)` is told of each later column whose name or spelling another already has.
 */
export function spellingsOf(names: readonly string[], onClash?: (name: string, other: string) => void): Map<string, string> {
  const spellings = new Map<string, string>()
  for (const name of names) {
    for (const spelling of new Set([name, ...columnSpellings(name)])) {
      const other = spellings.get(spelling)
      if (other === undefined) spellings.set(spelling, name)
      else if (other !== name) onClash?.(name, other)
    }
  }
  return spellings
}
