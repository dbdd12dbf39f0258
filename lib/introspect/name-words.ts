import type { Naming } from './options.ts'

/**
 * The words of a database identifier, split at underscores, hyphens, spaces and case changes, each kept
 * as spelled: `author_id` → `['author', 'id']`, `ArtistId` → `['Artist', 'Id']`, `HTTPStatus` → `['HTTP', 'Status']`.
 *
 * @example
 * nameWords('PlaylistTrack') // ['Playlist', 'Track']
 */
export function nameWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter((word) => word !== '')
}

const capitalised = (word: string): string => (word[0] ?? '').toUpperCase() + word.slice(1).toLowerCase()

/**
 * Joins words into a name in the given style: `camel` (`authorId`), `snake` (`author_id`), or `as-is`
 * (the words as spelled, joined with `_` unless the words already carry their case, as in `ArtistId`).
 *
 * @example
 * joinWords(['Artist', 'Id'], 'camel') // 'artistId'
 */
export function joinWords(words: readonly string[], naming: Naming): string {
  if (naming === 'snake') return words.map((word) => word.toLowerCase()).join('_')
  if (naming === 'camel')
    return words.map((word, index) => (index === 0 ? word.toLowerCase() : capitalised(word))).join('')
  const pascal = words.every((word) => /^[A-Z]/.test(word))
  return words.join(pascal ? '' : '_')
}

/**
 * A database identifier in the given style: `camel` and `snake` convert it, `as-is` keeps it.
 *
 * @example
 * styledName('ArtistId', 'snake') // 'artist_id'
 */
export function styledName(identifier: string, naming: Naming): string {
  return naming === 'as-is' ? identifier : joinWords(nameWords(identifier), naming)
}
